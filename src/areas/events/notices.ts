import type { EventsTable, Executor } from '../../db/tables.ts';
import type { AccountMail } from '../../mail/account-mail.ts';
import { type EventMessageKind, eventMessage } from '../../mail/event-messages.ts';
import type { SchoolSettings } from '../school-settings.ts';
import { eventWhen } from './when.ts';

/** How the events area sends mail: `mail/account-mail.ts` implements it (queued in the caller's transaction). */
export type EventMail = Pick<AccountMail, 'send'>;

type Person = { id: string; email: string; name: string };

/**
 * The e-mail an event sends its people, each written in the transaction of the change it tells of (a registration,
 * a promotion, a move, a cancel, the reminder), so a change rolled back sends nothing. Times are written in the
 * event's own zone and name it; the `.ics` is linked (the outbox carries no attachments).
 */
export function eventNotices(deps: { mail: EventMail; school: SchoolSettings; baseUrl: string }) {
  const { mail, baseUrl } = deps;

  async function facts(ex: Executor, event: EventsTable) {
    const { locale } = await deps.school.settings(ex);
    const at = (start: string, end: string) => eventWhen({ starts_at: start, ends_at: end }, event.timezone, locale);
    const joinOpensAt = new Date(Date.parse(event.starts_at) - event.join_opens_minutes * 60_000).toISOString();
    const page = `${baseUrl}/events/${encodeURIComponent(event.slug)}`;
    return {
      at,
      facts: {
        title: event.title,
        when: at(event.starts_at, event.ends_at),
        address: event.address,
        joinOpens: event.join_url ? at(joinOpensAt, joinOpensAt) : null,
        pageUrl: page,
        icsUrl: `${page}.ics`,
      },
    };
  }

  return {
    /** Sends `kind` about `event` to each of `people` (`previously`: the old time of a moved event). */
    async send(
      ex: Executor,
      kind: EventMessageKind,
      event: EventsTable,
      people: (Person & { position?: number })[],
      previously?: Pick<EventsTable, 'starts_at' | 'ends_at'>,
    ) {
      if (people.length === 0) return;
      const { at, facts: written } = await facts(ex, event);
      const before = previously ? at(previously.starts_at, previously.ends_at) : undefined;
      await mail.send(ex, {
        to: people,
        kind,
        write: (sender, person) =>
          eventMessage(kind, sender, person, written, { position: person.position, previously: before }),
      });
    },
  };
}

export type EventNotices = ReturnType<typeof eventNotices>;
