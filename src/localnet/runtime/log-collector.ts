/** Collects a transaction's log lines, truncated at 10 kB like a validator's LogCollector. */
export class LogCollector {
  static readonly BYTES_LIMIT = 10_000;
  readonly lines: string[] = [];
  private bytes = 0;
  private truncated = false;

  push(line: string): void {
    if (this.truncated) return;
    this.bytes += line.length;
    if (this.bytes > LogCollector.BYTES_LIMIT) {
      this.truncated = true;
      this.lines.push('Log truncated');
      return;
    }
    this.lines.push(line);
  }
}
