/**
 * A deleted account's address: unique, and under `.invalid`, which RFC 2606 §2 reserves as a name that can never
 * exist. The row itself stays, anonymised, for the records that point at it (orders, enrollments, the audit trail).
 */
export const deletedEmail = (userId: string) => `deleted-${userId.toLowerCase()}@anonymous.invalid`;

/** Whether the account was deleted by its owner: its address is the one deletion gives it. */
export const isDeletedAccount = (person: { id: string; email: string }) => person.email === deletedEmail(person.id);
