// The key-value page: a database's keys on the left, the chosen key (or a new one) on the
// right, and the command line and live monitor below.

import { useState } from 'preact/hooks';
import type { ConsoleInfo } from '../wire';
import type { KvTarget } from './api';
import { CommandLine } from './command-line';
import { KeyBrowser } from './key-browser';
import { KeyView } from './key-view';
import { MonitorView } from './monitor-view';
import { NewKeyForm } from './new-key-form';

type Tool = 'command' | 'monitor';

export function KvPage(props: { info: ConsoleInfo }) {
  const { info } = props;
  const [db, setDb] = useState(info.kv[0]?.db ?? '');
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [generation, setGeneration] = useState(0);
  const [tool, setTool] = useState<Tool>('command');
  const target: KvTarget | undefined = info.kv.find((k) => k.db === db);
  if (target === undefined) return <p class="empty">No key-value database is configured.</p>;

  const refresh = () => setGeneration((g) => g + 1);
  const open = (key: string) => {
    setCreating(false);
    setSelected(key);
  };

  return (
    <div class="kv-page">
      <div class="toolbar">
        <label>
          Database
          <select
            name="database"
            value={db}
            onChange={(e) => {
              setDb(e.currentTarget.value);
              setSelected(null);
            }}
          >
            {info.kv.map((k) => (
              <option value={k.db}>{k.db}</option>
            ))}
          </select>
        </label>
        {!info.readOnly && (
          <button type="button" onClick={() => setCreating(true)}>
            New key
          </button>
        )}
      </div>
      <div class="split">
        <KeyBrowser key={db} target={target} selected={selected} generation={generation} onOpen={open} />
        <section class="detail">
          {creating ? (
            <NewKeyForm
              target={target}
              onCreated={(key) => {
                refresh();
                open(key);
              }}
              onCancel={() => setCreating(false)}
            />
          ) : selected !== null ? (
            <KeyView
              key={`${db}/${selected}/${generation}`}
              target={target}
              name={selected}
              readOnly={info.readOnly}
              onDeleted={() => {
                setSelected(null);
                refresh();
              }}
            />
          ) : (
            <p class="empty">Choose a key, or type its name in the browser.</p>
          )}
        </section>
      </div>
      <div class="tabs">
        <button type="button" class={tool === 'command' ? 'current' : ''} onClick={() => setTool('command')}>
          Command line
        </button>
        <button type="button" class={tool === 'monitor' ? 'current' : ''} onClick={() => setTool('monitor')}>
          Monitor
        </button>
      </div>
      {tool === 'command' ? <CommandLine key={db} target={target} onRan={refresh} /> : <MonitorView key={db} target={target} />}
    </div>
  );
}
