import type { CheckoutQuote, Order } from '../../areas/orders/schema.ts';
import type { SchoolDates } from '../../text/dates.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { formatMoney } from '../../text/money.ts';
import { csrfField } from '../shared/layout.ts';

export const checkoutPath = (type: string, key: string) => `/checkout/${type}/${encodeURIComponent(key)}`;
export const orderPath = (id: string) => `/orders/${encodeURIComponent(id)}`;

const PERIOD = { month: 'month', year: 'year' } as const;

const problemBox = (problem: string | undefined) =>
  problem ? html`<p class="warning" role="alert" id="problem">${problem}</p>` : '';

/** The buy button's words: what pressing it does. */
function payLabel(quote: CheckoutQuote, locale: string) {
  if (quote.trial_days > 0) return `Start the ${quote.trial_days}-day free trial`;
  if (!quote.needs_payment) return 'Get it for free';
  return `Pay ${formatMoney(quote.total, locale)}`;
}

/** The review step of a checkout: the item, its price, a coupon field, the total and the button that buys it. */
export function checkoutView(data: {
  quote: CheckoutQuote;
  action: string;
  csrf: string;
  couponCode: string;
  couponProblem?: string;
  problem?: string;
  locale: string;
  heldHref: string;
}): SafeHtml {
  const { quote, locale } = data;
  const show = (money: { amount: number; currency: string }) => formatMoney(money, locale);
  const every = quote.interval ? ` every ${PERIOD[quote.interval]}` : '';
  if (quote.already_held)
    return html`<p>You already have <strong>${quote.item.title}</strong>.</p><p><a class="button" href="${data.heldHref}">Go to it</a></p>`;
  const blocked = quote.needs_payment && !quote.payments_enabled;
  return html`${problemBox(data.problem)}
<section class="checkout" aria-labelledby="review">
<h2 id="review">Your order</h2>
<table class="order-lines">
<thead><tr><th scope="col">Item</th><th scope="col">Price</th></tr></thead>
<tbody><tr><td>${quote.item.title}</td><td>${show(quote.unit_price)}${every}</td></tr>
${quote.trial_days > 0 ? html`<tr><td>Free trial</td><td>${quote.trial_days} days, then ${show(quote.unit_price)}${every}</td></tr>` : ''}
${quote.discount.amount > 0 ? html`<tr><td>Coupon ${quote.coupon_code ?? ''}</td><td>−${show(quote.discount)}</td></tr>` : ''}</tbody>
<tfoot><tr><th scope="row">Due today</th><td><strong>${show(quote.total)}</strong></td></tr></tfoot>
</table>
<form method="get" action="${data.action}" class="coupon">
<label for="coupon_code">Coupon code</label>
<input id="coupon_code" name="coupon_code" value="${data.couponCode}" maxlength="40" autocomplete="off"${
    data.couponProblem ? html` aria-invalid="true" aria-describedby="coupon-problem"` : ''
  }>
<button type="submit" class="secondary">Apply</button>
${data.couponProblem ? html`<p class="field-error" id="coupon-problem">${data.couponProblem}</p>` : ''}
</form>
${
  blocked
    ? html`<p><button type="button" disabled>${payLabel(quote, locale)}</button></p><p>This school does not take payments yet.</p>`
    : html`<form method="post" action="${data.action}">${csrfField(data.csrf)}<input type="hidden" name="coupon_code" value="${
        quote.coupon_code ?? ''
      }"><p><button type="submit">${payLabel(quote, locale)}</button></p></form>`
}
${quote.needs_payment && quote.payments_enabled ? html`<p class="meta">You will pay on the payment provider's page and come back here for your receipt.</p>` : ''}
</section>`;
}

const STATUS_TEXT: Record<Order['status'], string> = {
  pending: 'Waiting for your payment.',
  paid: 'Paid. Thank you!',
  failed: 'The payment did not go through: nothing was charged and nothing was granted.',
  canceled: 'This order was canceled before it was paid: nothing was charged.',
  refunded: 'Refunded in full.',
  partially_refunded: 'Partly refunded.',
};

/** Where a bought item is used, once held. */
export type ItemLink = { title: string; href: string; label: string };

/** An order's page: its receipt once paid, what went wrong otherwise, and (for staff) the refund form. */
export function orderView(data: {
  order: Order;
  locale: string;
  dates: SchoolDates;
  links: ItemLink[];
  retryHref: string | null;
  payHref: string | null;
  refund: { csrf: string } | null;
  problem?: string;
}): SafeHtml {
  const { order, locale } = data;
  const show = (money: { amount: number; currency: string }) => formatMoney(money, locale);
  const date = data.dates.day;
  const left = order.total.amount - order.refunded_amount.amount;
  return html`${problemBox(data.problem)}
<p class="${order.status === 'failed' || order.status === 'canceled' ? 'warning' : 'notice'}" role="status">${STATUS_TEXT[order.status]}</p>
<dl class="facts">
<dt>Order</dt><dd>${String(order.number)}</dd>
<dt>Date</dt><dd>${date(order.created_at)}</dd>
<dt>Customer</dt><dd>${order.customer.name} (${order.customer.email})</dd>
${order.paid_at ? html`<dt>Paid</dt><dd>${date(order.paid_at)}</dd>` : ''}
</dl>
<table class="order-lines">
<thead><tr><th scope="col">Item</th><th scope="col">Price</th></tr></thead>
<tbody>${order.items.map((item) => html`<tr><td>${item.title}</td><td>${show(item.unit_price)}</td></tr>`)}
${order.discount.amount > 0 ? html`<tr><td>Coupon ${order.coupon_code ?? ''}</td><td>−${show(order.discount)}</td></tr>` : ''}</tbody>
<tfoot><tr><th scope="row">Total</th><td><strong>${show(order.total)}</strong></td></tr>
${order.refunded_amount.amount > 0 ? html`<tr><th scope="row">Refunded</th><td>${show(order.refunded_amount)}</td></tr>` : ''}</tfoot>
</table>
${
  order.status === 'paid' || order.status === 'partially_refunded'
    ? data.links.map((l) => html`<p><a class="button" href="${l.href}">${l.label}</a></p>`)
    : ''
}
${data.payHref ? html`<p><a class="button" href="${data.payHref}">Continue to payment</a></p>` : ''}
${data.retryHref ? html`<p><a class="button" href="${data.retryHref}">Try again</a></p>` : ''}
${
  data.refund && left > 0
    ? html`<section aria-labelledby="refund-title"><h2 id="refund-title">Refund (staff)</h2>
<form method="post" action="${orderPath(order.id)}/refund">${csrfField(data.refund.csrf)}
<label for="amount">Amount in minor units (at most ${String(left)}; empty refunds everything left)</label>
<input id="amount" name="amount" inputmode="numeric" pattern="[0-9]*">
<p><button type="submit" class="danger">Refund</button></p></form></section>`
    : ''
}`;
}

/** "My orders": the signed-in person's orders, newest first. */
export function myOrdersView(orders: Order[], locale: string): SafeHtml {
  if (orders.length === 0) return html`<p>You have no orders yet. <a href="/courses">Browse the courses</a>.</p>`;
  return html`<table class="order-lines"><thead><tr><th scope="col">Order</th><th scope="col">Items</th><th scope="col">Total</th><th scope="col">Status</th></tr></thead><tbody>${orders.map(
    (o) =>
      html`<tr><td><a href="${orderPath(o.id)}">${String(o.number)}</a></td><td>${o.items.map((i) => i.title).join(', ')}</td><td>${formatMoney(
        o.total,
        locale,
      )}</td><td>${o.status.replace('_', ' ')}</td></tr>`,
  )}</tbody></table>`;
}

/** The built-in test provider's payment page: unmistakably a test, with Pay and Decline. */
export function testPaymentView(data: { order: Order; csrf: string; action: string; locale: string }): SafeHtml {
  const { order } = data;
  return html`<p class="warning test-banner" role="note"><strong>TEST PAYMENT.</strong> This school runs the built-in test payment provider: no card is asked for and no money is taken. Pay marks the order paid; Decline acts as a refused card.</p>
<dl class="facts">
<dt>Order</dt><dd>${String(order.number)}</dd>
<dt>Items</dt><dd>${order.items.map((i) => i.title).join(', ')}</dd>
<dt>Amount</dt><dd><strong>${formatMoney(order.total, data.locale)}</strong></dd>
</dl>
<form method="post" action="${data.action}">${csrfField(data.csrf)}
<p><button type="submit" name="outcome" value="pay">Pay ${formatMoney(order.total, data.locale)} (test)</button>
<button type="submit" name="outcome" value="decline" class="secondary">Decline (test)</button></p>
</form>`;
}

/** One of the signed-in person's memberships, with its plan's name. */
export type MyMembership = {
  id: string;
  planName: string;
  status: string;
  periodEnd: string | null;
  trialEnd: string | null;
  cancelAtPeriodEnd: boolean;
};

/** "My memberships": each subscription's state, when it renews or ends, and the button that cancels or resumes it. */
export function myMembershipsView(items: MyMembership[], csrf: string, dates: SchoolDates): SafeHtml {
  if (items.length === 0) return html``;
  const { day } = dates;
  const line = (m: MyMembership) => {
    const live = m.status === 'trialing' || m.status === 'active' || m.status === 'past_due';
    const when = !m.periodEnd
      ? 'For life.'
      : m.cancelAtPeriodEnd
        ? `Ends on ${day(m.periodEnd)}.`
        : m.status === 'trialing'
          ? `Free trial until ${day(m.trialEnd ?? m.periodEnd)}, then it renews.`
          : live
            ? `Renews on ${day(m.periodEnd)}.`
            : '';
    const action =
      live && m.periodEnd && !m.cancelAtPeriodEnd
        ? html`<form method="post" action="/subscriptions/${m.id}/cancel"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit" class="secondary">Cancel at the end of the period</button></form>`
        : live && m.cancelAtPeriodEnd
          ? html`<form method="post" action="/subscriptions/${m.id}/resume"><input type="hidden" name="_csrf" value="${csrf}"><button type="submit">Keep my membership</button></form>`
          : '';
    return html`<li><strong>${m.planName}</strong> — ${m.status.replace('_', ' ')}. ${when}${action}</li>`;
  };
  return html`<section aria-labelledby="memberships"><h2 id="memberships">My memberships</h2><ul class="my-memberships">${items.map(line)}</ul></section>`;
}
