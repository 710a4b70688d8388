/** Something a Durable Object does at a time: when it next wants the alarm, and what it does then. */
export interface ScheduledConcern {
  /** When this concern next needs to run (ms since the epoch), or `null` for never. */
  nextAlarmAt(): number | null;
  /** Runs the concern's due work; called when the alarm fires at or after `nextAlarmAt()`. */
  onAlarm(now: number): Promise<void>;
}

/**
 * One Durable Object alarm shared by several concerns (a turn's heartbeat, reminders…): the alarm is set
 * at the earliest time any concern wants, and when it fires each due concern runs, then the alarm is set
 * again. A concern that throws does not stop the others; the first error is rethrown afterwards, so the
 * runtime retries the alarm.
 */
export class AlarmDispatcher {
  constructor(
    private readonly storage: DurableObjectStorage,
    private readonly concerns: readonly ScheduledConcern[],
  ) {}

  /** Sets the alarm at the earliest concern's time, or deletes it when none wants one. */
  async reschedule(): Promise<void> {
    const times = this.concerns.map((c) => c.nextAlarmAt()).filter((t): t is number => t !== null);
    if (times.length === 0) {
      await this.storage.deleteAlarm();
      return;
    }
    const next = Math.min(...times);
    if ((await this.storage.getAlarm()) !== next) await this.storage.setAlarm(next);
  }

  /** The object's `alarm()`: runs every concern that is due at `now`, then reschedules. */
  async fire(now: number): Promise<void> {
    const errors: unknown[] = [];
    for (const concern of this.concerns) {
      const at = concern.nextAlarmAt();
      if (at === null || at > now) continue;
      try {
        await concern.onAlarm(now);
      } catch (error) {
        errors.push(error);
      }
    }
    await this.reschedule();
    if (errors.length > 0) throw errors[0];
  }
}
