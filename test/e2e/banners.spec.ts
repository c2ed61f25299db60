// Banners and campaigns in the back office (issue 28), in English and Nepali: a placement with a
// size rule, a banner whose wrong-size image is refused before any upload and whose right-size
// image is uploaded, a link checked in the form; a campaign for mobile visitors from Nepal with
// its words line, activated, then served by the public API to a matching visitor and not to
// another; an impression and a click through the public tracking API seen on the performance
// screen, and its CSV. A limited role sees no create or activate buttons; the list fits a phone.
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import {
  chooseLanguage,
  expectAccessible,
  expectListsSettled,
  expectNoSidewaysScroll,
  PHONE,
  signIn,
} from './console';
import { adminApi, api, limitedStaff } from './marketing';
import { shot, stringsOf } from './staff-api';

/** A PNG of one grey colour, `width` × `height` px, made here (no image library in the tests). */
function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x88)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** The words line of a campaign for mobile visitors from Nepal, as the test expects to read it. */
const REACHES = {
  en: 'Reaches: Mobile visitors, from Nepal',
  ne: 'पुग्छ: मोबाइल प्रयोग गर्ने आगन्तुक, नेपालबाट',
};

async function open(page: Page, path: string, heading: string) {
  await page.goto(`/admin${path}`);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

for (const language of ['en', 'ne'] as const) {
  const { area: s, common } = stringsOf('banners', language);

  test(`a placement, a banner with a checked image, a targeted campaign served and counted (${language})`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const id = stamp();
    const slot = { label: `Slot ${id}`, slug: `slot-${id}` };
    const bannerTitle = `Dashain sale ${id}`;
    const campaignName = `Festive ${id}`;
    await signIn(page);
    await chooseLanguage(page, language);

    // A placement that wants 400 × 200 px images.
    await open(page, '/banners/placements', s.placements.title);
    await page.getByRole('button', { name: s.placements.new }).click();
    const placementForm = page.getByRole('form', { name: s.placements.form });
    await placementForm.getByLabel(s.fields.label).fill(slot.label);
    await placementForm.getByLabel(s.fields.slug).fill(slot.slug);
    await placementForm.getByLabel(s.fields.recommendedWidth).fill('400');
    await placementForm.getByLabel(s.fields.recommendedHeight).fill('200');
    await placementForm.locator('button[type="submit"]').click();
    await expect(placementForm).toBeHidden();
    await expect(page.getByText(slot.slug)).toBeVisible();
    await expectAccessible(page);

    // A banner: the wrong-size image is refused before anything is sent, the right one uploaded.
    await open(page, '/banners', s.banners.title);
    await page.getByRole('button', { name: s.banners.new }).click();
    const form = page.getByRole('form', { name: s.banners.form });
    await form.getByLabel(s.fields.title).fill(bannerTitle);
    await form.getByLabel(s.banners.madeFor).selectOption({ label: slot.label });
    const uploads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/upload/')) uploads.push(request.url());
    });
    const file = form.locator('input[type="file"]');
    await file.setInputFiles({ name: 'square.png', mimeType: 'image/png', buffer: png(100, 100) });
    await expect(
      form.getByText(
        s.image.wrongRatio
          .replace('{{width}}', '100')
          .replace('{{height}}', '100')
          .replace('{{placement}}', slot.label)
          .replace('{{ratio}}', '400:200'),
      ),
    ).toBeVisible();
    expect(uploads).toEqual([]);
    await file.setInputFiles({ name: 'hero.png', mimeType: 'image/png', buffer: png(400, 200) });
    await expect(form.getByRole('link', { name: s.banners.imageUploaded })).toBeVisible();
    expect(uploads).toHaveLength(1);
    expect(await form.getByRole('link', { name: s.banners.imageUploaded }).getAttribute('href')).toMatch(
      /\.webp$/,
    );
    await form.getByLabel(s.fields.alt).fill('A festive sale banner');
    // A link that is neither a web address nor a storefront path is refused in the form.
    await form.getByLabel(s.fields.ctaUrl).fill('javascript:alert(1)');
    await form.locator('button[type="submit"]').click();
    await expect(form.getByText(common.fieldCodes.link.replace('{{label}}', s.fields.ctaUrl))).toBeVisible();
    await form.getByLabel(s.fields.ctaUrl).fill('/sale');
    await form.locator('button[type="submit"]').click();
    await expect(form).toBeHidden();
    await expect(page.getByText(bannerTitle)).toBeVisible();
    await expectAccessible(page);
    if (language === 'ne') await shot(page, 'banners-list-ne');

    // A campaign for mobile visitors from Nepal, in the placement with the banner.
    await open(page, '/banners/campaigns', s.campaigns.title);
    await page.getByRole('button', { name: s.campaigns.new }).click();
    const newCampaign = page.getByRole('form', { name: s.campaigns.form });
    await newCampaign.getByLabel(s.fields.name).fill(campaignName);
    await newCampaign.locator('button[type="submit"]').click();
    await expect(page.getByRole('heading', { level: 1, name: campaignName })).toBeVisible();
    const campaignId = new URL(page.url()).pathname.split('/').pop() as string;
    await expect(page.getByRole('status', { name: s.rules.reaches })).toHaveText(
      `${s.rules.reachesLine.replace(
        '{{words}}',
        s.words.visitors.replace(/^./, (c: string) => c.toUpperCase()),
      )}`,
    );

    const ruleForm = page.getByRole('form', { name: s.rules.add });
    await ruleForm.getByLabel(s.devices.mobile, { exact: true }).check();
    await ruleForm.getByRole('button', { name: s.rules.addButton }).click();
    await expect(
      page.getByRole('button', { name: s.rules.removeNamed.replace('{{type}}', s.ruleTypes.device) }),
    ).toBeVisible();
    await ruleForm.getByLabel(s.rules.type, { exact: true }).selectOption({ label: s.ruleTypes.country });
    await ruleForm.getByLabel(s.rules.listLabel.country).fill('np');
    await ruleForm.getByRole('button', { name: s.rules.addButton }).click();
    await expect(page.getByRole('status', { name: s.rules.reaches })).toHaveText(REACHES[language]);

    await page
      .getByRole('form', { name: s.links.add })
      .getByLabel(s.links.add)
      .selectOption({
        label: `${slot.label} (${slot.slug})`,
      });
    await page
      .getByRole('form', { name: s.links.add })
      .getByRole('button', { name: s.links.addButton })
      .click();
    const assignForm = page.getByRole('form', { name: s.links.assignTo.replace('{{name}}', slot.label) });
    await assignForm.getByRole('combobox').selectOption({ label: bannerTitle });
    await assignForm.getByRole('button', { name: s.links.assignButton }).click();
    await expect(
      page.getByRole('table', { name: s.links.bannersIn.replace('{{name}}', slot.label) }),
    ).toContainText(bannerTitle);

    // Only the moves the lifecycle allows a draft: schedule needs a start, so it is not offered.
    const moves = page.getByRole('group', { name: s.campaign.moves });
    await expect(moves.getByRole('button')).toHaveText([s.moves.activate, s.moves.cancel]);
    await moves.getByRole('button', { name: s.moves.activate }).click();
    await expect(page.getByRole('status').getByText(s.status.active, { exact: true })).toBeVisible();
    await expect(moves.getByRole('button')).toHaveText([s.moves.pause, s.moves.end, s.moves.cancel]);
    await expectAccessible(page);
    if (language === 'en') {
      await page.setViewportSize({ width: 1280, height: 900 });
      await shot(page, 'console-campaign');
    } else await shot(page, 'campaign-editor-ne');

    // The public serving API: a phone in Nepal gets the banner, a desktop does not.
    const serve = async (userAgent: string, country: string) => {
      const answer = await fetch(`${baseURL}/api/banners/serve/${slot.slug}`, {
        headers: { 'user-agent': userAgent, 'x-country-code': country },
      });
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { data: { banners: { title: string }[] } };
      return body.data.banners.map((b) => b.title);
    };
    expect(await serve(IPHONE, 'NP')).toEqual([bannerTitle]);
    expect(await serve(DESKTOP, 'NP')).toEqual([]);
    expect(await serve(IPHONE, 'IN')).toEqual([]);

    // An impression and a click through the public tracking API, seen on the performance screen.
    const admin = await adminApi(baseURL as string);
    const [placement] = (await admin.data('GET', `/api/admin/placements?search=${slot.slug}`)) as {
      publicId: string;
    }[];
    const [banner] = (await admin.data(
      'GET',
      `/api/admin/banners?search=${encodeURIComponent(bannerTitle)}`,
    )) as {
      publicId: string;
    }[];
    const event = {
      bannerPublicId: banner!.publicId,
      placementPublicId: placement!.publicId,
      campaignPublicId: campaignId,
      deviceType: 'mobile',
      countryCode: 'NP',
      occurredAt: new Date().toISOString(),
    };
    const visitor = api(baseURL as string);
    for (const kind of ['impression', 'impression', 'click'] as const) {
      const answer = await visitor.call('POST', `/api/banners/events/${kind}`, {
        ...event,
        correlationId: `e2e-${kind}-${stamp()}`,
        ...(kind === 'click' ? { destinationUrl: '/sale' } : {}),
      });
      expect(answer.status).toBe(202);
    }
    await expect
      .poll(async () => {
        const figures = await admin.data(
          'GET',
          `/api/admin/banner-stats/daily?campaignPublicId=${campaignId}`,
        );
        return figures.rows.map((r: { impressions: number; clicks: number }) => [r.impressions, r.clicks]);
      })
      .toEqual([[2, 1]]);
    await page.goto(`/admin/banners/performance?campaign=${campaignId}`);
    await expect(page.getByRole('heading', { level: 1, name: s.performance.title })).toBeVisible();
    const table = page.getByRole('table', {
      name: s.performance.tableCaption.replace('{{by}}', s.performance.campaign),
    });
    await expect(table.getByRole('row').nth(1)).toContainText(campaignName);
    await expect(table.getByRole('row').nth(1)).toContainText('50.0%');
    const chartWords = s.performance.chartSummary.split('{{')[0] as string;
    await expect(page.getByRole('img', { name: chartWords, exact: false })).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: s.performance.csv }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Date (UTC),Campaign,Impressions,Clicks,CTR (%)');
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2},${campaignName},2,1,50\\.00$`));
    await expectAccessible(page);
    if (language === 'ne') await shot(page, 'performance-ne');

    // The list on a phone: no sideways scroll.
    await page.setViewportSize(PHONE);
    await open(page, '/banners', s.banners.title);
    await expectListsSettled(page);
    await expect(page.getByText(bannerTitle)).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
  });

  test(`a role that only reads banners and campaigns sees no create or activate buttons (${language})`, async ({
    page,
    baseURL,
  }) => {
    const who = await limitedStaff(baseURL as string, 'Banner viewer', [
      'Banners_READ',
      'Placements_READ',
      'Campaigns_READ',
      'Assignments_READ',
      'TargetingRules_READ',
    ]);
    const admin = await adminApi(baseURL as string);
    const campaign = await admin.data('POST', '/api/admin/campaigns', { name: `Read only ${stamp()}` });
    await signIn(page, who);
    await chooseLanguage(page, language);
    await open(page, '/banners', s.banners.title);
    await expectListsSettled(page);
    await expect(page.getByRole('button', { name: s.banners.new })).toHaveCount(0);
    await expect(page.getByRole('button', { name: s.list.activate })).toHaveCount(0);
    await expect(page.getByRole('button', { name: s.list.deactivate })).toHaveCount(0);
    await open(page, '/banners/campaigns', s.campaigns.title);
    await expect(page.getByRole('button', { name: s.campaigns.new })).toHaveCount(0);
    await page.goto(`/admin/banners/campaigns/${campaign.publicId}`);
    await expect(page.getByRole('heading', { level: 1, name: campaign.name })).toBeVisible();
    await expect(page.getByRole('status', { name: s.rules.reaches })).toBeVisible();
    await expect(page.getByRole('button', { name: s.moves.activate })).toHaveCount(0);
    await expect(page.getByRole('form', { name: s.rules.add })).toHaveCount(0);
    await expect(page.getByRole('button', { name: s.campaign.save })).toHaveCount(0);
    await open(page, '/banners/placements', s.placements.title);
    await expect(page.getByRole('button', { name: s.placements.new })).toHaveCount(0);
    await expectAccessible(page);
  });
}
