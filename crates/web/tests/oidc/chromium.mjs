// Drives headless Chromium (Debian's /usr/bin/chromium, through playwright-core) through a
// real flow of the web layer: open the connect URL, sign in at the test OpenID provider's
// development pages as USER_NAME, consent, then do what our page asks (type SECRET and
// save; press Confirm; or continue to the third-party provider and consent there) until
// our "Done" page. Prints one JSON line: {"title", "text", "url", "posts": [{url, origin}]}.
//
// Environment: CONNECT_URL, USER_NAME, SECRET (for secret pages), SCREENSHOT (PNG path;
// each of our pages is also saved as SCREENSHOT with -N suffixes), CHROMIUM (binary),
// PROFILE (a fresh user-data directory); optional CHROMIUM_ARGS (extra flags, one per line).
import { chromium } from 'playwright-core';

const env = (k) => {
  const v = process.env[k];
  if (!v) { console.error(`${k} is required`); process.exit(2); }
  return v;
};
const shot = env('SCREENSHOT');

console.error('launching chromium');
const context = await chromium.launchPersistentContext(env('PROFILE'), {
  executablePath: env('CHROMIUM'),
  headless: true,
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run',
    '--disable-crash-reporter', '--disable-breakpad',
    // Extra flags from the test, one per line (e.g. the test CA's certificate pin).
    ...(process.env.CHROMIUM_ARGS ?? '').split('\n').filter((a) => a.length > 0),
  ],
});
try {
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  const posts = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') posts.push({ url: r.url(), origin: r.headers().origin ?? null });
  });
  console.error(`opening ${env('CONNECT_URL')}`);
  await page.goto(env('CONNECT_URL'));
  // Click and let the navigation (with its redirect chain) settle. A redirect chain
  // can abort the navigation the click started (ERR_ABORTED) while the next one loads.
  const submit = async (selector) => {
    const before = page.url();
    await page.click(selector);
    const moved = await page
      .waitForURL((u) => u.toString() !== before, { timeout: 15000 })
      .then(() => true, () => false);
    await page.waitForLoadState('load');
    if (!moved && page.url() === before) throw new Error(`clicking ${selector} on ${before} went nowhere`);
  };
  for (let step = 0; step < 12; step += 1) {
    const title = await page.title();
    console.error(`step ${step}: ${page.url()} ${title}`);
    if (title === 'Done' || title === 'Request refused' || title.startsWith('Authorization not')) break;
    if (await page.$('input[name=login]')) {
      await page.fill('input[name=login]', env('USER_NAME'));
      await page.fill('input[name=password]', 'any');
      await submit('button[type=submit]');
    } else if (await page.$('input[name=prompt][value=consent]')) {
      await submit('button[type=submit]');
    } else if (await page.$('input[name=secret]')) {
      await page.screenshot({ path: shot.replace(/\.png$/, `-${step}.png`) });
      await page.fill('input[name=secret]', env('SECRET'));
      await submit('button[type=submit]');
    } else if (await page.$('button[name=decision][value=confirm]')) {
      await page.screenshot({ path: shot.replace(/\.png$/, `-${step}.png`) });
      await submit('button[name=decision][value=confirm]');
    } else if (await page.$('form[action="/connect/oauth"] button')) {
      await page.screenshot({ path: shot.replace(/\.png$/, `-${step}.png`) });
      await submit('form[action="/connect/oauth"] button');
    } else {
      break;
    }
  }
  await page.screenshot({ path: shot });
  const text = await page.textContent('body');
  process.stdout.write(JSON.stringify({ title: await page.title(), text, url: page.url(), posts }) + '\n');
} finally {
  await context.close();
}
