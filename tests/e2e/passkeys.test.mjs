// Passkeys in a real Chromium against the real server, through Chromium's virtual authenticator
// (the DevTools `WebAuthn` domain: CTAP2, internal, discoverable credentials, user verified):
// sign up with a passkey and no password, sign out, sign in with it naming no one, see the
// account; add a second one, remove it, and be refused the last. The page is opened at
// `localhost` (the server's default relying party): browsers refuse passkeys on an IP address.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ARTIFACTS, noSeriousA11yViolations, serverAndBrowser } from './harness.mjs';

const env = serverAndBrowser();

/** A page with a virtual authenticator of its own: `{ page, cdp, authenticatorId }`. */
async function withAuthenticator(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { page, cdp, authenticatorId };
}

describe('passkeys on the account page', () => {
  test('sign up with a passkey, sign out, sign in with it, add and remove one', async () => {
    const base = `http://localhost:${env.server.port}`;
    const context = await env.browser.newContext();
    const { page, cdp, authenticatorId } = await withAuthenticator(context);
    await page.goto(`${base}/account.html`);
    await page.waitForSelector('#signed-out:not([hidden])');
    await noSeriousA11yViolations(page, 'the account page, signed out');

    // Sign up: a name, then the authenticator makes a discoverable passkey.
    await page.fill('#passkey-sign-up-name', 'Pia');
    await page.click('#passkey-sign-up');
    await page.waitForSelector('#signed-in:not([hidden])');
    assert.equal(await page.textContent('#account-name'), 'Pia');
    await page.waitForSelector('#passkey-list li');
    assert.equal(await page.locator('#passkey-list li').count(), 1);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0].isResidentCredential, true, 'a discoverable credential');
    assert.equal(credentials[0].rpId, 'localhost');
    const me = await page.evaluate(() => fetch('/api/account').then((r) => r.json()));
    assert.equal(me.account.password, false);
    assert.equal(me.account.passkeys, 1);

    // Signed out, then in with the passkey: no name typed.
    await page.click('#sign-out');
    await page.waitForSelector('#signed-out:not([hidden])');
    await page.reload();
    await page.waitForSelector('#signed-out:not([hidden])');
    await page.click('#passkey-sign-in');
    await page.waitForSelector('#signed-in:not([hidden])');
    assert.equal(await page.textContent('#account-name'), 'Pia');
    await page.waitForFunction(() => document.querySelector('#passkey-list li')?.textContent?.includes('last used'));
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    assert.ok(after.credentials[0].signCount >= 1, `the authenticator counted: ${after.credentials[0].signCount}`);
    await noSeriousA11yViolations(page, 'the account page, signed in with a passkey');
    await page.screenshot({ path: `${ARTIFACTS}/passkeys-signed-in.png`, fullPage: true });

    // The last way in stays: removing the only passkey is refused in words.
    await page.click('#passkey-list li button');
    await page.waitForSelector('#account-error:not([hidden])');
    assert.match(await page.textContent('#account-error'), /last way to sign in/);

    // A second authenticator (another device) adds a passkey; then one is removed.
    const second = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await page.click('#passkey-add');
    await page.waitForFunction(() => document.querySelectorAll('#passkey-list li').length === 2);
    assert.match(await page.textContent('#account-status'), /Passkey added/);
    await page.click('#passkey-list li:first-child button');
    await page.waitForFunction(() => document.querySelectorAll('#passkey-list li').length === 1);
    assert.match(await page.textContent('#account-status'), /Passkey removed/);

    // The passkey left (the second device's) still signs in.
    await page.click('#sign-out');
    await page.waitForSelector('#signed-out:not([hidden])');
    await page.click('#passkey-sign-in');
    await page.waitForSelector('#signed-in:not([hidden])');
    assert.equal(await page.textContent('#account-name'), 'Pia');
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: second.authenticatorId });
    await context.close();
  });

  test('no passkey for the site, and a page at an IP address, are said plainly', async () => {
    const base = `http://localhost:${env.server.port}`;
    const context = await env.browser.newContext();
    const { page, cdp, authenticatorId } = await withAuthenticator(context);
    await page.goto(`${base}/account.html`);
    await page.waitForSelector('#signed-out:not([hidden])');
    // No passkey for this site on the authenticator: the browser finds none, and says so.
    await page.click('#passkey-sign-in');
    await page.waitForSelector('#account-error:not([hidden])', { timeout: 20000 });
    assert.equal(await page.textContent('#account-error'), 'No passkey was used: the request was cancelled or timed out.');
    // The page opened at an IP address: the browser refuses passkeys there, and the page says why.
    await page.goto(`http://127.0.0.1:${env.server.port}/account.html`);
    await page.waitForSelector('#signed-out:not([hidden])');
    await page.fill('#passkey-sign-up-name', 'Quin');
    await page.click('#passkey-sign-up');
    await page.waitForSelector('#account-error:not([hidden])');
    assert.match(await page.textContent('#account-error'), /opened over HTTPS, or at http:\/\/localhost/);
    // In another language the buttons and the words are its own.
    await page.evaluate(() => localStorage.setItem('tabletop.lang', 'ja'));
    await page.reload();
    await page.waitForSelector('#signed-out:not([hidden])');
    assert.equal(await page.textContent('#passkey-sign-in'), 'パスキーでサインイン');
    await page.click('#passkey-sign-in');
    await page.waitForSelector('#account-error:not([hidden])');
    assert.match(await page.textContent('#account-error'), /IP アドレス/);
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await context.close();
  });
});
