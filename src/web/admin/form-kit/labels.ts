import type { OperationTool } from '../../../operations/operation-tools.ts';

const words = (name: string) =>
  name
    .replace(/OAuth/g, 'Oauth')
    .replace(/([A-Z])/g, ' $1')
    .toLowerCase()
    .split(' ')
    .filter(Boolean);

const VERBS: Record<string, string> = { create: 'New', list: '', get: '' };

/**
 * A button's name for an operation on one object, from its operationId: the verb, and whatever it acts on besides the
 * object itself (publishCourse on a course is "Publish"; createSection on a course is "New section").
 */
export function actionLabel(tool: OperationTool, singular: string): string {
  const [verb = '', ...rest] = words(tool.name);
  const own = new Set(singular.toLowerCase().split(' '));
  const object = rest.filter((w) => !own.has(w) && !own.has(w.replace(/s$/, '')));
  const head = VERBS[verb] ?? verb.charAt(0).toUpperCase() + verb.slice(1);
  return [head, ...object].filter(Boolean).join(' ').replace(/^ /, '') || tool.title;
}

/** A heading for a list of things under an object, from its operationId (listSections → "Sections"). */
export function listLabel(tool: OperationTool, singular: string): string {
  const label = actionLabel(tool, singular).trim();
  return label.charAt(0).toUpperCase() + label.slice(1);
}
