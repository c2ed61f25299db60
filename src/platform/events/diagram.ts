// The Mermaid picture of docs/architecture.md ("Modules and their events"), made from what each
// module's index.ts declares (`PasalModule.events`): one arrow per publisher and subscriber,
// labelled with the events that pass. A test compares it with the document, so it cannot drift.
import type { ModuleEvents } from './events';

export function eventsDiagram(modules: ReadonlyArray<{ name: string; events?: ModuleEvents }>): string {
  const lines = ['flowchart LR'];
  for (const publisher of modules) {
    for (const subscriber of modules) {
      if (subscriber === publisher) continue;
      const heard = (publisher.events?.publishes ?? []).filter((name) =>
        subscriber.events?.subscribes.includes(name),
      );
      if (heard.length) lines.push(`  ${publisher.name} -- "${heard.join('<br/>')}" --> ${subscriber.name}`);
    }
  }
  return lines.join('\n');
}
