import type { Executor } from '../../db/tables.ts';

/** What coupons need of the orders area: whether an order names the coupon, which keeps it from being deleted. */
export type OrdersPort = { namesCoupon(ex: Executor, couponId: string): Promise<boolean> };
