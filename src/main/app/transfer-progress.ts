/**
 * One folder's progress through a pass, for the progress bar: files and bytes done of what the pass
 * planned, per direction, with the smoothed rate and time left of src/shared/sync/transfer-estimate.ts
 * (the same arithmetic the CLI's live line uses). Done never exceeds planned, so the bar never runs
 * past its end or backwards within a pass.
 */
import type { SyncProgress, TransferTally } from '../../shared/bridge/app-state.js';
import type { PlannedTransfers } from '../../shared/sync/transfer-event.js';
import { TransferEstimate, bytesStillToMove } from '../../shared/sync/transfer-estimate.js';

const emptyTally = (): TransferTally => ({ filesDone: 0, filesPlanned: 0, bytesDone: 0, bytesPlanned: 0 });

export class TransferProgress {
  private send = emptyTally();
  private receive = emptyTally();
  /** Bytes of the files still being written, sent by a later pass: in the time left, not in the bar. */
  private waitingBytes = 0;
  private estimate: TransferEstimate;
  private active = false;

  constructor(private readonly now: () => number) {
    this.estimate = new TransferEstimate(now);
  }

  /** A pass planned these transfers: a fresh bar and a fresh rate. */
  planned(plan: PlannedTransfers): void {
    this.send = { ...emptyTally(), filesPlanned: plan.send.files, bytesPlanned: plan.send.bytes };
    this.receive = { ...emptyTally(), filesPlanned: plan.receive.files, bytesPlanned: plan.receive.bytes };
    this.waitingBytes = plan.waiting.bytes;
    this.estimate = new TransferEstimate(this.now);
    this.estimate.add(0);
    this.active = plan.send.files + plan.receive.files > 0;
  }

  bytes(direction: 'send' | 'receive', count: number): void {
    const tally = direction === 'send' ? this.send : this.receive;
    tally.bytesDone = Math.min(tally.bytesPlanned, tally.bytesDone + count);
    this.estimate.add(count);
  }

  fileDone(direction: 'send' | 'receive'): void {
    const tally = direction === 'send' ? this.send : this.receive;
    tally.filesDone = Math.min(tally.filesPlanned, tally.filesDone + 1);
  }

  /** The pass ended: nothing is under way until the next plan. */
  ended(): void {
    this.active = false;
  }

  get running(): boolean {
    return this.active;
  }

  view(): SyncProgress {
    const remaining = bytesStillToMove(this.send.bytesPlanned + this.receive.bytesPlanned, this.send.bytesDone + this.receive.bytesDone, this.waitingBytes);
    return {
      send: { ...this.send },
      receive: { ...this.receive },
      bytesPerSecond: this.estimate.rate() ?? null,
      etaSeconds: this.estimate.secondsLeft(remaining) ?? null,
    };
  }
}
