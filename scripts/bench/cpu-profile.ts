/** A CPU profile of this process over one load run (bench:api --profile), for Chrome DevTools or speedscope. */
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

export async function startCpuProfile() {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stopInto(dir: string, name: string): Promise<void> {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await mkdir(dir, { recursive: true });
      const file = `${name.replace(/[^\w.-]+/g, '_').replace(/^_|_$/g, '')}.cpuprofile`;
      await writeFile(join(dir, file), JSON.stringify(profile));
    },
  };
}
