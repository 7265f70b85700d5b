// A simulated Alertmanager's silences, in memory: what the demo puts behind the Silence buttons
// of an alert group's thread (ChatOptions.silences) where no Alertmanager runs. It checks the
// input as Alertmanager would (SilenceInput) and keeps what it was given, for the demo to show.
import { type ExpireOutcome, SilenceInput, type SilencePort } from '../alerts/silences.js';

export interface SimSilence {
  id: string;
  input: SilenceInput;
  expired: boolean;
}

export class SimSilences implements SilencePort {
  readonly silences: SimSilence[] = [];

  constructor(private readonly onChange?: (silence: SimSilence) => void) {}

  async create(input: SilenceInput): Promise<{ id: string }> {
    const checked = SilenceInput.parse(input);
    const silence = { id: `sim-silence-${this.silences.length + 1}`, input: checked, expired: false };
    this.silences.push(silence);
    this.onChange?.(silence);
    return { id: silence.id };
  }

  async expire(id: string): Promise<ExpireOutcome> {
    const silence = this.silences.find((s) => s.id === id);
    if (!silence) return 'not-found';
    silence.expired = true;
    this.onChange?.(silence);
    return 'expired';
  }
}
