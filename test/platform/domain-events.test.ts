// The domain-events port: in-transaction subscribers veto by throwing, after-commit ones run
// once committed and only log their failure; a module hears only what its index.ts declares,
// publishes only what it declares, and docs/architecture.md's picture is the declarations'.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modules } from '../../src/app';
import type { Db } from '../../src/platform/db/database';
import { eventsDiagram } from '../../src/platform/events/diagram';
import {
  createDomainEvents,
  type DomainEventName,
  declaredSubscriptions,
} from '../../src/platform/events/events';

const ROOT = path.resolve(__dirname, '../..');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : full.endsWith('.ts') ? [full] : [];
  });
}

describe('the bus', () => {
  const tx = {} as Db;

  it('an in-transaction subscriber runs with the tx and vetoes by throwing; after-commit ones wait', async () => {
    const errors: string[] = [];
    const bus = createDomainEvents({ onSubscriberError: (_e, name) => errors.push(name) });
    const heard: string[] = [];
    bus.inTransaction('order.paid', async (t, p) => {
      expect(t).toBe(tx);
      heard.push(`in:${p.orderId}`);
    });
    bus.afterCommit('order.paid', (p) => {
      heard.push(`after:${p.orderId}`);
    });
    const effects: Array<() => void | Promise<void>> = [];
    await bus.dispatch(tx, (e) => effects.push(e), 'order.paid', { orderId: 7, paidByAdminId: null });
    expect(heard).toEqual(['in:7']);
    for (const effect of effects) await effect();
    expect(heard).toEqual(['in:7', 'after:7']);

    const stop = bus.inTransaction('order.paid', async () => {
      throw new Error('veto');
    });
    await expect(
      bus.dispatch(tx, () => {}, 'order.paid', { orderId: 8, paidByAdminId: null }),
    ).rejects.toThrow('veto');
    stop();
    await bus.dispatch(tx, () => {}, 'order.paid', { orderId: 9, paidByAdminId: null });
    expect(heard).toContain('in:9');
  });

  it("an after-commit subscriber's failure is reported, never thrown", async () => {
    const errors: string[] = [];
    const bus = createDomainEvents({ onSubscriberError: (_e, name) => errors.push(name) });
    bus.afterCommit('payment.failed', () => {
      throw new Error('mail down');
    });
    const effects: Array<() => void | Promise<void>> = [];
    await bus.dispatch(tx, (e) => effects.push(e), 'payment.failed', {
      orderId: 1,
      paymentId: 'p',
      reason: 'x',
    });
    for (const effect of effects) await effect();
    expect(errors).toEqual(['payment.failed']);
  });

  it('a module may subscribe only to the events its index.ts declares', () => {
    const bus = createDomainEvents({ onSubscriberError: () => {} });
    const scoped = declaredSubscriptions('invoices', { publishes: [], subscribes: ['order.paid'] }, bus);
    expect(() => scoped.inTransaction('order.paid', async () => {})).not.toThrow();
    expect(() => scoped.afterCommit('payment.completed', () => {})).toThrow(
      'module invoices subscribes to payment.completed without declaring it',
    );
  });
});

describe("the modules' declarations", () => {
  it("each module publishes exactly the events its index.ts declares (its folder's publishEvent calls)", () => {
    for (const module of modules) {
      const dir = path.join(ROOT, 'src/modules', module.name);
      const published = new Set<string>();
      for (const file of filesUnder(dir)) {
        for (const m of readFileSync(file, 'utf8').matchAll(/publishEvent\(\s*[\w.]+,\s*'([^']+)'/g)) {
          published.add(m[1]!);
        }
      }
      expect([...published].sort(), module.name).toEqual([...(module.events?.publishes ?? [])].sort());
    }
  });

  it('every event someone hears is published by a module', () => {
    const published = new Set<DomainEventName>(modules.flatMap((m) => m.events?.publishes ?? []));
    for (const module of modules)
      for (const name of module.events?.subscribes ?? []) expect(published.has(name), name).toBe(true);
  });

  it('docs/architecture.md pictures the events between the modules as they declare them', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const block =
      /<!-- events-diagram:start[^>]*-->\n```mermaid\n([\s\S]*?)\n```\n<!-- events-diagram:end -->/.exec(doc);
    const expected = eventsDiagram(modules);
    expect(block?.[1], `paste into docs/architecture.md:\n\`\`\`mermaid\n${expected}\n\`\`\``).toBe(expected);
  });
});
