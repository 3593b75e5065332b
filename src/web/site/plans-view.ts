import type { Plan, Price } from '../../areas/membership-plans/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { formatMoney } from '../../text/money.ts';
import { coursePath } from '../shared/course-cards.ts';
import { markdownHtml, markdownText } from '../shared/markdown.ts';
import { summary } from '../shared/text.ts';
import { pager } from './catalog-view.ts';
import { checkoutPath } from './checkout-view.ts';

export const planPath = (slug: string) => `/plans/${encodeURIComponent(slug)}`;

/** A plan with the courses it includes that the viewer may see. */
export type PlanWithCourses = { plan: Plan; courses: { title: string; slug: string }[] };

type Offer = { locale: string; takesPayments: boolean };

const PER = { month: ' / month', year: ' / year', one_time: ' once' } as const;

/** A price as the school writes it: "€15.00 / month", "€299.00 once", "Free / month", with its trial first. */
export function priceLabel(price: Pick<Price, 'amount' | 'currency' | 'interval' | 'trial_days'>, locale: string) {
  const amount = price.amount === 0 ? 'Free' : formatMoney(price, locale);
  const label = `${amount}${PER[price.interval]}`;
  if (price.trial_days === 0) return label;
  return `${price.trial_days} ${price.trial_days === 1 ? 'day' : 'days'} free, then ${label}`;
}

/** Each price on sale with its button; a paid one says so when the school takes no payments yet. */
function offers(plan: Plan, offer: Offer): SafeHtml {
  const prices = plan.prices.filter((p) => p.status === 'active');
  if (plan.status !== 'active' || prices.length === 0) return html`<p>This plan is not on sale at the moment.</p>`;
  return html`<ul class="offers">${prices.map((price) => {
    const label = price.interval === 'one_time' ? 'Buy' : price.trial_days ? 'Start the free trial' : 'Subscribe';
    const action =
      price.amount > 0 && !offer.takesPayments
        ? html`<p><button type="button" disabled>${label}</button></p><p class="meta">The school does not take payments yet.</p>`
        : html`<p><a class="button" href="${checkoutPath('plan', price.id)}" aria-label="${label}: ${plan.name}, ${priceLabel(price, offer.locale)}">${label}</a></p>`;
    return html`<li><p class="price">${priceLabel(price, offer.locale)}</p>${action}</li>`;
  })}</ul>`;
}

const benefitList = (plan: Plan) =>
  plan.benefits.length ? html`<ul class="benefits">${plan.benefits.map((b) => html`<li>${b}</li>`)}</ul>` : html``;

function courseList(courses: PlanWithCourses['courses'], heading: 'h2' | 'h3', id: string): SafeHtml {
  if (!courses.length) return html``;
  const title = 'Courses included';
  return html`<section aria-labelledby="${id}">${
    heading === 'h2' ? html`<h2 id="${id}">${title}</h2>` : html`<h3 id="${id}">${title}</h3>`
  }<ul>${courses.map((c) => html`<li><a href="${coursePath(c.slug)}">${c.title}</a></li>`)}</ul></section>`;
}

/** /plans: every public plan on sale, with its benefits, included courses and prices. */
export function plansView(
  data: Offer & { plans: PlanWithCourses[]; previousHref: string | null; nextHref: string | null },
): SafeHtml {
  if (!data.plans.length) return html`<p>No membership plans are offered yet.</p>`;
  return html`<ul class="cards plans">${data.plans.map(
    ({ plan, courses }) => html`<li class="card"><div class="body">
<h2><a href="${planPath(plan.slug)}">${plan.name}</a></h2>
${plan.description ? html`<p>${summary(markdownText(plan.description))}</p>` : ''}
${benefitList(plan)}
${courseList(courses, 'h3', `courses-${plan.id}`)}
${offers(plan, data)}
</div></li>`,
  )}</ul>
${pager(data.previousHref, data.nextHref)}`;
}

/** Why a plan is on the page though it is not listed; nothing for a listed plan. */
function visibilityNotice(plan: Plan): SafeHtml {
  if (plan.status !== 'active')
    return html`<p class="warning">This plan is archived: it is no longer sold, and only staff can see this page.</p>`;
  if (plan.visibility === 'hidden')
    return html`<p class="notice">This plan is not listed: anyone with the link can see and buy it.</p>`;
  return html``;
}

/** /plans/<slug>: the plan's description, benefits, included courses and prices with their buttons. */
export function planView(data: Offer & PlanWithCourses): SafeHtml {
  const { plan } = data;
  return html`${visibilityNotice(plan)}
<div class="course-head"><div>
${plan.description.trim() ? markdownHtml(plan.description) : ''}
${benefitList(plan)}
</div>
<aside class="buy" aria-label="Prices">${offers(plan, data)}</aside></div>
${courseList(data.courses, 'h2', 'courses-heading')}`;
}
