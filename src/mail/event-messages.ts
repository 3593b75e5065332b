import { html } from '../text/html.ts';
import { htmlBody, link, type MailContent, type Sender, textBody } from './messages.ts';

/** What a message says of an event: its time already written in the event's own zone, with the zone named. */
export type EventFacts = {
  title: string;
  when: string;
  address: string | null;
  /** When the join link shows on the event page (online events only), written like `when`. */
  joinOpens: string | null;
  pageUrl: string;
  icsUrl: string;
};

export const EVENT_MESSAGE_KINDS = [
  'event_registered',
  'event_waitlisted',
  'event_promoted',
  'event_reminder',
  'event_moved',
  'event_canceled',
] as const;
export type EventMessageKind = (typeof EVENT_MESSAGE_KINDS)[number];

const headline: Record<EventMessageKind, (title: string) => string> = {
  event_registered: (t) => `You are registered for ${t}`,
  event_waitlisted: (t) => `You are on the waitlist for ${t}`,
  event_promoted: (t) => `A seat freed up: you are registered for ${t}`,
  event_reminder: (t) => `Reminder: ${t} starts soon`,
  event_moved: (t) => `${t} has moved`,
  event_canceled: (t) => `${t} is canceled`,
};

function opening(kind: EventMessageKind, event: EventFacts, extra: { position?: number; previously?: string }) {
  switch (kind) {
    case 'event_registered':
      return `You have a seat at "${event.title}".`;
    case 'event_waitlisted':
      return `"${event.title}" is full, so you are on its waitlist (number ${extra.position ?? '?'} in line). If a seat frees up, you get it in turn and we write to you.`;
    case 'event_promoted':
      return `A seat freed up at "${event.title}" and it is yours now.`;
    case 'event_reminder':
      return `"${event.title}" is coming up.`;
    case 'event_moved':
      return `"${event.title}" has a new time${extra.previously ? ` (it was ${extra.previously})` : ''}.`;
    case 'event_canceled':
      return `"${event.title}" is canceled. We are sorry; your registration is canceled with it.`;
  }
}

/** Every message the events area sends to a registered or waitlisted person. */
export function eventMessage(
  kind: EventMessageKind,
  sender: Sender,
  to: { name: string },
  event: EventFacts,
  extra: { position?: number; previously?: string } = {},
): MailContent {
  const greeting = `Hello ${to.name},`;
  const canceled = kind === 'event_canceled';
  const where = event.address ? `Where: ${event.address}` : 'Where: online';
  const join =
    !canceled && event.joinOpens
      ? `The link to join shows on the event page for registered people from ${event.joinOpens}.`
      : null;
  const calendar = canceled ? null : `Add it to your calendar: ${event.icsUrl}`;
  const lines = [
    opening(kind, event, extra),
    `When: ${event.when}`,
    where,
    ...(join ? [join] : []),
    `The event page: ${event.pageUrl}`,
    ...(calendar ? [calendar] : []),
  ];
  return {
    subject: headline[kind](event.title),
    text: textBody(sender, greeting, lines),
    html: htmlBody(sender, greeting, [
      html`${opening(kind, event, extra)}`,
      html`<strong>When:</strong> ${event.when}<br>${where}`,
      ...(join ? [html`${join}`] : []),
      link(event.pageUrl, 'The event page'),
      ...(calendar ? [link(event.icsUrl, 'Add it to your calendar (.ics)')] : []),
    ]),
  };
}
