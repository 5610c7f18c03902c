/**
 * The console's shell: sign-in gate, navigation and a hash router (`#/markets`,
 * `#/markets/SPOT/BTCUSDT`, `#/accounts`, `#/accounts/1000000001`, `#/operate`, `#/system`), so
 * the server serves one page and a view is a link that survives a reload.
 */
import '@picocss/pico/css/pico.min.css';
import './style.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { session } from './api.ts';
import { publicFeed } from './ws.ts';
import { SignIn } from './views/sign-in.tsx';
import { Markets } from './views/markets.tsx';
import { Market } from './views/market.tsx';
import { Accounts } from './views/accounts.tsx';
import { Account } from './views/account.tsx';
import { Operate } from './views/operate.tsx';
import { System } from './views/system.tsx';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const onChange = () => setHash(location.hash);
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return hash;
}

function useFeedOpen(): boolean {
  const [open, setOpen] = useState(publicFeed.open);
  useEffect(() => publicFeed.onStatus(setOpen), []);
  return open;
}

const SECTIONS = [
  ['markets', 'Markets'],
  ['accounts', 'Accounts'],
  ['operate', 'Operate'],
  ['system', 'System'],
] as const;

function View({ parts }: { parts: string[] }) {
  const [section, first, second] = parts;
  if (section === 'markets' && first && second) return <Market instType={first} symbol={second} />;
  if (section === 'accounts' && first) return <Account uid={first} />;
  if (section === 'accounts') return <Accounts />;
  if (section === 'operate') return <Operate />;
  if (section === 'system') return <System />;
  return <Markets />;
}

function App() {
  const [signedIn, setSignedIn] = useState(session.token() !== null);
  const hash = useHash();
  const feedOpen = useFeedOpen();
  useEffect(() => session.onSignOut(() => setSignedIn(false)), []);
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const section = parts[0] ?? 'markets';
  return (
    <>
      <header class="container-fluid">
        <nav>
          <ul>
            <li>
              <strong>bourse</strong>
            </li>
          </ul>
          <ul>
            {SECTIONS.map(([id, label]) => (
              <li key={id}>
                <a href={`#/${id}`} aria-current={section === id ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
            <li>
              <span class={feedOpen ? 'live on' : 'live'} title="public WebSocket">
                {feedOpen ? 'live' : 'offline'}
              </span>
            </li>
            <li>
              <button type="button" class="secondary outline small" onClick={() => session.signOut()}>
                Sign out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main class="container-fluid" id="view" data-view={section}>
        <View parts={parts} />
      </main>
    </>
  );
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
