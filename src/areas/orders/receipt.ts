import type { Executor } from '../../db/tables.ts';
import type { AccountMail } from '../../mail/account-mail.ts';
import { formatMoney } from '../../text/money.ts';
import type { SchoolSettings } from '../school-settings.ts';
import type { ReceiptMail } from './fulfilment.ts';
import type { OrdersStore } from './store.ts';

/** The receipt e-mail of a paid order, queued in the transaction that made it paid. Free orders get one too. */
export function receiptMail(deps: {
  store: OrdersStore;
  school: SchoolSettings;
  mail: Pick<AccountMail, 'orderReceipt'>;
}): ReceiptMail {
  return async (trx: Executor, orderId: string) => {
    const order = await deps.store.withCustomer(trx).where('orders.id', '=', orderId).executeTakeFirst();
    if (!order) return;
    const { locale } = await deps.school.settings(trx);
    const show = (amount: number) => formatMoney({ amount: Number(amount), currency: order.currency }, locale);
    const items = await deps.store.items(trx, [orderId]);
    await deps.mail.orderReceipt(trx, {
      user: { id: order.user_id, email: order.customer_email, name: order.customer_name },
      orderId,
      order: {
        number: Number(order.number),
        lines: items.map((item) => ({ title: item.title, amount: show(item.unit_amount) })),
        discount: Number(order.discount) > 0 ? show(order.discount) : null,
        total: show(order.total),
      },
    });
  };
}
