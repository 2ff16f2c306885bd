// @ts-check
// The account page: sign up or in with a name and a password or with a passkey, add and
// remove passkeys, sign out here or everywhere, download your data, delete the account
// (docs/accounts.md).
import { $, el, field, request, showError } from './api.js';
import { dateTime, t } from './i18n.js';
import { errorText } from './refusals.js';
import { heldSeats } from './seatstore.js';

/** @typedef {import('./protocol').Me} Me */
/** @typedef {import('./protocol').SignedOut} SignedOut */
/** @typedef {import('./protocol').PasskeyChallenge} PasskeyChallenge */
/** @typedef {import('./protocol').Passkeys} Passkeys */

/** @param {Me} me */
function draw(me) {
  const a = me.account;
  $('signed-in').hidden = !a;
  $('signed-out').hidden = !!a;
  if (a) {
    $('account-name').textContent = a.name;
    $('account-profile').setAttribute('href', `player.html?id=${encodeURIComponent(a.id)}`);
    listPasskeys();
  }
}

// Passkeys (WebAuthn). The server's options carry binary fields in base64url, as the browser's
// answer must too; the ceremony's state stays on the server, named by `ceremony`.

/** @param {ArrayBuffer | null} buf */
const b64 = (buf) =>
  buf ? btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : null;
/** @param {string} s */
const unb64 = (s) =>
  Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4)), (c) => c.charCodeAt(0));

/**
 * A list of credentials named by base64url ids, as the browser takes them.
 * @param {unknown} list
 */
function descriptors(list) {
  if (!Array.isArray(list)) return undefined;
  return list.map((/** @type {{ id: string }} */ d) => ({ ...d, id: unb64(d.id) }));
}

/** The words for a passkey ceremony that failed in the browser or on the server. @param {unknown} err */
function passkeyError(err) {
  if (typeof PublicKeyCredential === 'undefined' || !navigator.credentials) return t('passkey.unsupported');
  if (err instanceof DOMException) {
    if (err.name === 'NotAllowedError' || err.name === 'AbortError') return t('passkey.cancelled');
    if (err.name === 'InvalidStateError') return t('passkey.exists');
    if (err.name === 'SecurityError') return t('passkey.insecure');
    return t('passkey.unsupported');
  }
  return errorText(err);
}

/**
 * Makes a passkey with the server's options; answers what the finish route takes.
 * @param {PasskeyChallenge} challenge
 */
async function create(challenge) {
  if (!window.isSecureContext) throw new DOMException('insecure', 'SecurityError');
  const pk = /** @type {any} */ (challenge.options.publicKey);
  const publicKey = {
    ...pk,
    challenge: unb64(pk.challenge),
    user: { ...pk.user, id: unb64(pk.user.id) },
    excludeCredentials: descriptors(pk.excludeCredentials),
  };
  const cred = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.create({ publicKey }));
  if (!cred) throw new DOMException('no credential', 'NotAllowedError');
  const r = /** @type {AuthenticatorAttestationResponse} */ (cred.response);
  const credential = {
    id: cred.id,
    rawId: b64(cred.rawId),
    type: cred.type,
    response: { attestationObject: b64(r.attestationObject), clientDataJSON: b64(r.clientDataJSON) },
    extensions: {},
  };
  return { ceremony: challenge.ceremony, credential };
}

/**
 * Signs in with a passkey this browser offers (no name typed: the passkey names its account).
 * @param {PasskeyChallenge} challenge
 */
async function get(challenge) {
  if (!window.isSecureContext) throw new DOMException('insecure', 'SecurityError');
  const pk = /** @type {any} */ (challenge.options.publicKey);
  const publicKey = { ...pk, challenge: unb64(pk.challenge), allowCredentials: descriptors(pk.allowCredentials) };
  const cred = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.get({ publicKey }));
  if (!cred) throw new DOMException('no credential', 'NotAllowedError');
  const r = /** @type {AuthenticatorAssertionResponse} */ (cred.response);
  const credential = {
    id: cred.id,
    rawId: b64(cred.rawId),
    type: cred.type,
    response: {
      authenticatorData: b64(r.authenticatorData),
      clientDataJSON: b64(r.clientDataJSON),
      signature: b64(r.signature),
      userHandle: b64(r.userHandle),
    },
    extensions: {},
  };
  return { ceremony: challenge.ceremony, credential };
}

/**
 * Runs a passkey ceremony, showing its failure in words.
 * @param {() => Promise<void>} act
 */
async function passkeyAttempt(act) {
  showError($('account-error'), '');
  try {
    await act();
  } catch (err) {
    showError($('account-error'), passkeyError(err));
  }
}

/** @param {Passkeys} list */
function drawPasskeys(list) {
  const ul = $('passkey-list');
  ul.replaceChildren(
    ...list.passkeys.map((p) => {
      const added = dateTime(p.created_at);
      const text = p.used_at === null ? t('passkey.item.unused', { added }) : t('passkey.item', { added, used: dateTime(p.used_at) });
      const remove = el('button', { type: 'button', class: 'passkey-remove', 'aria-label': t('passkey.removeLabel', { added }) }, t('passkey.remove'));
      remove.addEventListener('click', () =>
        passkeyAttempt(async () => {
          drawPasskeys(/** @type {Passkeys} */ (await request('DELETE', `/api/account/passkeys/${encodeURIComponent(p.id)}`)));
          $('account-status').textContent = t('passkey.removed');
        }),
      );
      return el('li', { class: 'passkey' }, el('span', {}, text), ' ', remove);
    }),
  );
  $('passkey-none').hidden = list.passkeys.length > 0;
}

async function listPasskeys() {
  try {
    drawPasskeys(/** @type {Passkeys} */ (await request('GET', '/api/account/passkeys')));
  } catch (err) {
    showError($('account-error'), errorText(err));
  }
}

/**
 * A guest who just signed up keeps the games they played in this browser: its seats are claimed
 * for the new account (its profile's games).
 * @param {Me} me
 */
async function upgraded(me) {
  draw(me);
  if (!me.account) return;
  let n = 0;
  const seats = heldSeats();
  if (seats.length) {
    try {
      n = /** @type {import('./protocol').Claimed} */ (await request('POST', '/api/account/claim', { seats })).seats;
    } catch {
      /* signed up all the same; the games stay playable by their seat tokens */
    }
  }
  $('account-status').textContent = n ? t('account.claimed', { name: me.account.name, n }) : t('account.status.in', { name: me.account.name });
}

/** @param {Me} me */
function signedIn(me) {
  draw(me);
  $('account-status').textContent = me.account ? t('account.status.in', { name: me.account.name }) : '';
}

$('passkey-sign-in').addEventListener('click', () =>
  passkeyAttempt(async () => {
    const challenge = /** @type {PasskeyChallenge} */ (await request('POST', '/api/account/passkey/sign-in/start'));
    signedIn(/** @type {Me} */ (await request('POST', '/api/account/passkey/sign-in/finish', await get(challenge))));
  }),
);
$('passkey-sign-up-form').addEventListener('submit', (e) => {
  e.preventDefault();
  passkeyAttempt(async () => {
    const name = field('passkey-sign-up-name').value;
    const challenge = /** @type {PasskeyChallenge} */ (await request('POST', '/api/account/passkey/sign-up/start', { name }));
    await upgraded(/** @type {Me} */ (await request('POST', '/api/account/passkey/sign-up/finish', await create(challenge))));
  });
});
$('passkey-add').addEventListener('click', () =>
  passkeyAttempt(async () => {
    const challenge = /** @type {PasskeyChallenge} */ (await request('POST', '/api/account/passkey/add/start'));
    drawPasskeys(/** @type {Passkeys} */ (await request('POST', '/api/account/passkey/add/finish', await create(challenge))));
    $('account-status').textContent = t('passkey.added');
  }),
);

async function load() {
  try {
    draw(/** @type {Me} */ (await request('GET', '/api/account')));
  } catch (err) {
    showError($('account-error'), errorText(err));
  }
}

/**
 * Runs `act`, showing its refusal in words.
 * @param {() => Promise<void>} act
 */
async function attempt(act) {
  showError($('account-error'), '');
  try {
    await act();
  } catch (err) {
    showError($('account-error'), errorText(err));
  }
}

/**
 * @param {string} route
 * @param {string} name
 * @param {string} password
 */
async function withPassword(route, name, password) {
  const me = /** @type {Me} */ (await request('POST', route, { name, password }));
  draw(me);
  $('account-status').textContent = me.account ? t('account.status.in', { name: me.account.name }) : '';
}

$('sign-in-form').addEventListener('submit', (e) => {
  e.preventDefault();
  attempt(() => withPassword('/api/account/sign-in', field('sign-in-name').value, field('sign-in-password').value));
});
$('sign-up-form').addEventListener('submit', (e) => {
  e.preventDefault();
  attempt(async () =>
    upgraded(/** @type {Me} */ (await request('POST', '/api/account/sign-up', { name: field('sign-up-name').value, password: field('sign-up-password').value }))),
  );
});
$('sign-out').addEventListener('click', () =>
  attempt(async () => {
    await request('POST', '/api/account/sign-out');
    draw({ account: null });
    $('account-status').textContent = t('account.status.out');
  }),
);
$('sign-out-everywhere').addEventListener('click', () =>
  attempt(async () => {
    const out = /** @type {SignedOut} */ (await request('POST', '/api/account/sign-out-everywhere'));
    draw({ account: null });
    $('account-status').textContent = t('account.status.outAll', { n: out.sessions });
  }),
);
$('delete-account').addEventListener('click', () =>
  attempt(async () => {
    if (!confirm(t('account.confirmDelete'))) return;
    await request('POST', '/api/account/delete');
    draw({ account: null });
    $('account-status').textContent = t('account.deleted');
  }),
);
load();
