// STUB: replaced by the area implementation.
export {};
