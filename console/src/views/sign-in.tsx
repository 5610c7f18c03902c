/** Sign-in: the operator token, checked against the operator API before it is kept. */
import { useState } from 'preact/hooks';
import { errorText, operator, session } from '../api.ts';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const token = String(new FormData(event.currentTarget as HTMLFormElement).get('token') ?? '').trim();
    setBusy(true);
    setError('');
    try {
      await operator('GET', '/clock', undefined, token);
      session.signIn(token);
      onSignedIn();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="container sign-in">
      <article>
        <header>
          <h1>bourse console</h1>
        </header>
        <form onSubmit={submit}>
          <label>
            Operator token
            <input
              name="token"
              type="password"
              autocomplete="current-password"
              required
              autofocus
              aria-invalid={error ? 'true' : undefined}
              aria-describedby="sign-in-error"
            />
          </label>
          <small id="sign-in-error" role="alert" class="error">
            {error}
          </small>
          <button type="submit" aria-busy={busy}>
            Sign in
          </button>
        </form>
        <footer>
          <small>
            Printed by <code>npm start</code> and kept in <code>data/credentials.json</code>. It stays in this
            tab only.
          </small>
        </footer>
      </article>
    </main>
  );
}
