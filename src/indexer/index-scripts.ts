import { readFileSync } from 'node:fs';
import { LuaScript } from '../redis/lua-script.js';

const lua = (name: string) => readFileSync(new URL(`./lua/${name}.lua`, import.meta.url), 'utf8');

export interface IndexScripts {
  readonly upsert: LuaScript;
  readonly metadata: LuaScript;
  readonly query: LuaScript;
  readonly refresh: LuaScript;
}

let scripts: IndexScripts | undefined;

/** The index's scripts, each its shared prelude plus its body (read once, on first use). */
export function indexScripts(): IndexScripts {
  if (!scripts) {
    const common = lua('common');
    const write = `${common}\n${lua('write-helpers')}`;
    const dynamic = `${common}\n${lua('dynamic')}`;
    scripts = {
      upsert: new LuaScript(`${write}\n${lua('upsert')}`),
      metadata: new LuaScript(`${write}\n${lua('metadata')}`),
      query: new LuaScript(
        `${dynamic}\n${lua('price-window')}\n${lua('query')}\n${lua('search')}\n${lua('query-reply')}`,
      ),
      refresh: new LuaScript(`${dynamic}\n${lua('refresh')}`),
    };
  }
  return scripts;
}
