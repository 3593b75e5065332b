import type { Role } from './roles.ts';

type ScopeDefinition = {
  /** What the consent page says the scope lets the app do. */
  description: string;
  /** Roles whose members may grant it; a scope outside the role is dropped from the grant. */
  roles: readonly Role[];
};

const EVERYONE = ['owner', 'staff', 'student'] as const;
const STAFF = ['owner', 'staff'] as const;

/** The one scope table: every scope of the interface spec, its consent text and who may grant it. */
export const SCOPES = {
  openid: { description: 'Confirm who you are (your account id)', roles: EVERYONE },
  profile: { description: 'See your name', roles: EVERYONE },
  email: { description: 'See your email address', roles: EVERYONE },
  'courses:read': { description: 'See courses, including the ones you are enrolled in', roles: EVERYONE },
  'courses:write': { description: 'Create, change, publish and delete courses', roles: STAFF },
  'students:read': { description: 'See students and their enrollments', roles: EVERYONE },
  'students:write': { description: 'Add, change, enroll and suspend students', roles: STAFF },
  'members:read': { description: 'See members and their memberships', roles: STAFF },
  'members:write': { description: 'Add, change and remove members', roles: STAFF },
  'analytics:read': { description: 'See enrollment, completion and revenue figures', roles: STAFF },
  'curriculum:read': { description: 'See course sections and lessons', roles: EVERYONE },
  'curriculum:write': { description: 'Create, change, reorder and delete sections and lessons', roles: STAFF },
  'orders:read': { description: 'See orders (students: their own orders)', roles: EVERYONE },
  'school:read': { description: "See the school's settings", roles: EVERYONE },
  'school:write': { description: "Change the school's settings", roles: STAFF },
  'appearance:read': { description: "See the school's appearance settings", roles: EVERYONE },
  'appearance:write': { description: "Change the school's logo, colours, fonts and navigation", roles: STAFF },
  'events:read': { description: 'See live events and registrations', roles: EVERYONE },
  'events:write': { description: 'Create, change and cancel live events', roles: STAFF },
  'membership_plans:read': { description: 'See membership plans and prices', roles: EVERYONE },
  'membership_plans:write': { description: 'Create, change and archive membership plans and prices', roles: STAFF },
  'coupons:read': { description: 'See coupons', roles: STAFF },
  'coupons:write': { description: 'Create, change and disable coupons', roles: STAFF },
  'posts:read': { description: 'See posts', roles: EVERYONE },
  'posts:write': { description: 'Write, schedule, publish and delete posts', roles: STAFF },
  'subscriptions:read': { description: 'See subscriptions (students: their own)', roles: EVERYONE },
  'subscriptions:write': { description: 'Cancel, pause, resume and change subscriptions', roles: STAFF },
  'digital_products:read': { description: 'See digital products', roles: EVERYONE },
  'digital_products:write': { description: 'Create, change, publish and grant digital products', roles: STAFF },
  'comments:read': { description: 'See comments on posts and lessons', roles: EVERYONE },
  'lecturers:read': { description: 'See lecturer profiles', roles: EVERYONE },
  'lecturers:write': { description: 'Create, change and archive lecturer profiles', roles: STAFF },
  'storage:write': { description: 'Upload files', roles: STAFF },
  'forms:read': { description: 'See forms and their submissions', roles: STAFF },
  'pages:read': { description: 'See pages, including drafts', roles: EVERYONE },
  'pages:write': { description: 'Create, change, publish and delete pages', roles: STAFF },
  'account:read': { description: 'See your account and the apps connected to it', roles: EVERYONE },
  'account:write': { description: 'Change your account and disconnect apps', roles: EVERYONE },
} as const satisfies Record<string, ScopeDefinition>;

export type Scope = keyof typeof SCOPES;

export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);

export function roleMayGrant(role: Role, scope: string): boolean {
  return isScope(scope) && (SCOPES[scope].roles as readonly Role[]).includes(role);
}

/** Splits requested scopes into those the role may grant and those dropped from the grant. */
export function partitionByRole(role: Role, requested: Iterable<string>): { granted: Scope[]; dropped: string[] } {
  const granted: Scope[] = [];
  const dropped: string[] = [];
  for (const scope of new Set(requested)) {
    if (roleMayGrant(role, scope)) granted.push(scope as Scope);
    else dropped.push(scope);
  }
  return { granted, dropped };
}
