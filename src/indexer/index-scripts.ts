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
    const keys = lua('keys');
    const common = `${keys}\n${lua('common')}`;
    const write = `${common}\n${lua('write-helpers')}`;
    const dynamic = `${common}\n${lua('dynamic')}`;
    scripts = {
      upsert: new LuaScript(`${write}\n${lua('upsert')}`),
      metadata: new LuaScript(`${write}\n${lua('metadata')}`),
      // The page cache first: a kept page is answered before the other helpers are defined.
      query: new LuaScript(
        ['keys', 'page-cache', 'common', 'dynamic', 'price-window', 'query', 'search', 'query-reply']
          .map((name) => lua(name))
          .join('\n'),
      ),
      refresh: new LuaScript(`${dynamic}\n${lua('refresh')}`),
    };
  }
  return scripts;
}
