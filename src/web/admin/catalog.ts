import type { OperationTool } from '../../operations/operation-tools.ts';

export const ADMIN_GROUPS = ['Courses', 'People', 'Sales', 'Content', 'Settings', 'Security'] as const;
export type AdminGroup = (typeof ADMIN_GROUPS)[number];

/**
 * One kind of thing the admin manages, named by the API operations that read and write it. Which operations exist
 * decides what the admin offers: actions, child lists and forms are derived from the live route table.
 */
export type AdminResource = {
  /** The admin address: /admin/<key>. */
  key: string;
  label: string;
  singular: string;
  group: AdminGroup;
  list?: string;
  get?: string;
  create?: string;
  update?: string;
  /** The fields that name a row, first present wins. */
  title: readonly string[];
  /** The other columns of the list. */
  columns: readonly string[];
  /** The id prefix of its objects, so a row seen elsewhere links here. */
  prefix?: string;
  /** Reached from another resource (a course's sections), not from the menu. */
  hidden?: boolean;
  /** More ways to add to the list than its create form (a coupon batch, a CSV import): links on the list page. */
  adds?: readonly { href: string; label: string }[];
  /** The name of the create button and form, when "New <singular>" says it badly ("Invite a student"). */
  createLabel?: string;
  /** Shown beside the edit form: a sample of the public site in the look being edited (appearance). */
  preview?: 'theme';
  /** Fields written in Markdown, shown on the object's page as the site renders them. */
  markdown?: readonly string[];
  /** Dedicated screens of one object, under its address (`/admin/<key>/<id>/<path>`), linked from its page. */
  screens?: readonly AdminScreen[];
};

/** A screen made for one job on one object (a quiz's questions, a course's cover), in place of a generic field. */
export type AdminScreen = {
  path: string;
  label: string;
  /** The fields this screen edits: left out of the generic create and edit forms, which could only show them raw. */
  replaces?: readonly string[];
  /** Offered only to objects holding this value (a lesson's questions, for a quiz lesson only). */
  when?: { field: string; is: string };
};

const r = (resource: AdminResource) => resource;

export const ADMIN_RESOURCES: readonly AdminResource[] = [
  r({
    key: 'courses',
    label: 'Courses',
    singular: 'course',
    group: 'Courses',
    list: 'listCourses',
    get: 'getCourse',
    create: 'createCourse',
    update: 'updateCourse',
    title: ['title'],
    columns: ['status', 'visibility', 'price', 'updated_at'],
    prefix: 'crs',
    screens: [
      { path: 'curriculum', label: 'Curriculum' },
      { path: 'drafts', label: 'What is still a draft' },
      { path: 'drip', label: 'Release schedule' },
      { path: 'cover', label: 'Cover image', replaces: ['cover_url', 'cover_asset_id'] },
    ],
  }),
  r({
    key: 'sections',
    label: 'Sections',
    singular: 'section',
    group: 'Courses',
    get: 'getSection',
    update: 'updateSection',
    title: ['title'],
    columns: ['status', 'position'],
    prefix: 'sec',
    screens: [{ path: 'drip', label: 'When it opens', replaces: ['drip'] }],
    hidden: true,
  }),
  r({
    key: 'lessons',
    label: 'Lessons',
    singular: 'lesson',
    group: 'Courses',
    get: 'getLesson',
    update: 'updateLesson',
    title: ['title'],
    columns: ['type', 'status', 'position'],
    prefix: 'les',
    markdown: ['body'],
    screens: [
      { path: 'media', label: 'Upload a file' },
      { path: 'captions', label: 'Captions and poster', replaces: ['captions', 'poster_asset_id'] },
      { path: 'quiz', label: 'Questions', replaces: ['quiz'], when: { field: 'type', is: 'quiz' } },
    ],
    hidden: true,
  }),
  r({
    key: 'lecturers',
    label: 'Lecturers',
    singular: 'lecturer',
    group: 'Content',
    list: 'listLecturers',
    get: 'getLecturer',
    create: 'createLecturer',
    update: 'updateLecturer',
    title: ['name'],
    columns: ['title', 'status'],
    prefix: 'lec',
    screens: [{ path: 'photo', label: 'Photo', replaces: ['avatar_url', 'avatar_asset_id'] }],
  }),
  r({
    key: 'students',
    label: 'Students',
    singular: 'student',
    group: 'People',
    list: 'listStudents',
    get: 'getStudent',
    create: 'createStudent',
    update: 'updateStudent',
    title: ['name', 'email'],
    columns: ['email', 'status', 'created_at'],
    prefix: 'usr',
    createLabel: 'Invite a student',
    adds: [{ href: '/admin/students/import', label: 'Import from CSV' }],
  }),
  r({
    key: 'members',
    label: 'Members',
    singular: 'member',
    group: 'People',
    list: 'listMembers',
    get: 'getMember',
    create: 'createMember',
    update: 'updateMember',
    createLabel: 'Add a member',
    title: ['name', 'email'],
    columns: ['email', 'status', 'labels'],
  }),
  r({
    key: 'certificates',
    label: 'Certificates',
    singular: 'certificate',
    group: 'People',
    list: 'listCertificates',
    get: 'getCertificate',
    title: ['recipient_name', 'id'],
    columns: ['course_title', 'status', 'issued_at'],
  }),
  r({
    key: 'orders',
    label: 'Orders',
    singular: 'order',
    group: 'Sales',
    list: 'listOrders',
    get: 'getOrder',
    title: ['number'],
    columns: ['status', 'customer', 'total', 'refunded_amount', 'created_at'],
    prefix: 'ord',
  }),
  r({
    key: 'coupons',
    label: 'Coupons',
    singular: 'coupon',
    group: 'Sales',
    list: 'listCoupons',
    get: 'getCoupon',
    create: 'createCoupon',
    update: 'updateCoupon',
    title: ['code'],
    columns: ['state', 'percent_off', 'amount_off', 'times_redeemed', 'expires_at'],
    prefix: 'cpn',
    adds: [{ href: '/admin/operations/bulkCreateCoupons?return_to=%2Fadmin%2Fcoupons', label: 'Create codes in bulk' }],
  }),
  r({
    key: 'plans',
    label: 'Plans',
    singular: 'plan',
    group: 'Sales',
    list: 'listMembershipPlans',
    get: 'getMembershipPlan',
    create: 'createMembershipPlan',
    update: 'updateMembershipPlan',
    title: ['name'],
    columns: ['status', 'visibility'],
    prefix: 'pln',
  }),
  r({
    key: 'products',
    label: 'Digital products',
    singular: 'digital product',
    group: 'Sales',
    list: 'listDigitalProducts',
    get: 'getDigitalProduct',
    create: 'createDigitalProduct',
    update: 'updateDigitalProduct',
    title: ['title'],
    columns: ['status', 'price'],
    prefix: 'prd',
    screens: [{ path: 'picture', label: 'Picture', replaces: ['image_url'] }],
  }),
  r({
    key: 'subscriptions',
    label: 'Subscriptions',
    singular: 'subscription',
    group: 'Sales',
    list: 'listSubscriptions',
    get: 'getSubscription',
    title: ['id'],
    columns: ['status', 'user_id', 'plan_id', 'current_period_end'],
    prefix: 'sub',
  }),
  r({
    key: 'pages',
    label: 'Pages',
    singular: 'page',
    group: 'Content',
    list: 'listPages',
    get: 'getPage',
    create: 'createPage',
    update: 'updatePage',
    title: ['title'],
    columns: ['slug', 'status', 'updated_at'],
    prefix: 'pag',
    markdown: ['draft_body', 'published_body'],
  }),
  r({
    key: 'posts',
    label: 'Posts',
    singular: 'post',
    group: 'Content',
    list: 'listPosts',
    get: 'getPost',
    create: 'createPost',
    update: 'updatePost',
    title: ['title'],
    columns: ['status', 'published_at', 'visibility'],
    prefix: 'pst',
    markdown: ['body'],
    screens: [{ path: 'cover', label: 'Cover image', replaces: ['cover_url'] }],
  }),
  r({
    key: 'comments',
    label: 'Comments',
    singular: 'comment',
    group: 'Content',
    list: 'listComments',
    get: 'getComment',
    title: ['body'],
    columns: ['status', 'user_id', 'created_at'],
    prefix: 'cmt',
  }),
  r({
    key: 'events',
    label: 'Events',
    singular: 'event',
    group: 'Content',
    list: 'listEvents',
    get: 'getEvent',
    create: 'createEvent',
    update: 'updateEvent',
    title: ['title'],
    columns: ['status', 'starts_at', 'capacity'],
    prefix: 'evt',
    screens: [{ path: 'attendance', label: 'Attendance' }],
  }),
  r({
    key: 'forms',
    label: 'Forms',
    singular: 'form',
    group: 'Content',
    list: 'listForms',
    get: 'getForm',
    create: 'createForm',
    update: 'updateForm',
    title: ['title', 'name'],
    columns: ['status', 'page_id'],
    prefix: 'frm',
    screens: [{ path: 'submissions.csv', label: 'Download the submissions (CSV)' }],
  }),
  r({
    key: 'school',
    label: 'School',
    singular: 'school',
    group: 'Settings',
    get: 'getSchool',
    update: 'updateSchool',
    title: ['name'],
    columns: [],
  }),
  r({
    key: 'appearance',
    label: 'Appearance',
    singular: 'appearance',
    group: 'Settings',
    get: 'getAppearance',
    update: 'updateAppearance',
    preview: 'theme',
    screens: [
      { path: 'theme', label: 'Theme', replaces: ['theme'] },
      { path: 'home', label: 'Home page', replaces: ['home'] },
      { path: 'menu', label: 'Menu and footer links', replaces: ['navigation', 'footer'] },
      { path: 'fonts', label: 'Fonts', replaces: ['fonts'] },
      { path: 'logo', label: 'Logo', replaces: ['logo_url', 'logo_asset_id'] },
    ],
    title: [],
    columns: [],
  }),
  r({
    key: 'staff',
    label: 'Staff',
    singular: 'staff member',
    group: 'Settings',
    list: 'listStaff',
    get: 'getStaffMember',
    create: 'inviteStaff',
    update: 'updateStaffRole',
    createLabel: 'Invite staff',
    title: ['name', 'email'],
    columns: ['email', 'role'],
  }),
  r({
    key: 'outbox',
    label: 'E-mail outbox',
    singular: 'message',
    group: 'Settings',
    list: 'listOutboxMessages',
    get: 'getOutboxMessage',
    title: ['subject'],
    columns: ['to', 'kind', 'status', 'attempts', 'created_at'],
    prefix: 'msg',
  }),
  r({
    key: 'assets',
    label: 'Files',
    singular: 'file',
    group: 'Settings',
    list: 'listAssets',
    get: 'getAsset',
    title: ['filename'],
    columns: ['content_type', 'byte_size', 'status'],
    prefix: 'ast',
  }),
  r({
    key: 'apps',
    label: 'Apps',
    singular: 'oauth client',
    group: 'Security',
    list: 'listOAuthClients',
    get: 'getOAuthClient',
    title: ['client_name', 'id'],
    columns: ['grants', 'last_used_at', 'blocked_at'],
  }),
  r({
    key: 'sign-ins',
    label: 'Sign-in activity',
    singular: 'sign-in',
    group: 'Security',
    list: 'listSignInActivity',
    title: ['email'],
    columns: ['outcome', 'ip', 'at'],
  }),
  r({
    key: 'audit',
    label: 'Audit log',
    singular: 'audit entry',
    group: 'Security',
    list: 'listAuditLog',
    get: 'getAuditLogEntry',
    title: ['operation'],
    columns: ['actor_email', 'client_name', 'channel', 'object_id', 'at'],
  }),
];

/** Screens of the menu that are not one resource's (they read several, or the server's own settings). */
export const ADMIN_SCREENS: readonly { key: string; label: string; group: AdminGroup }[] = [
  { key: 'delivery', label: 'E-mail and payments', group: 'Settings' },
];

export type OperationIndex = ReadonlyMap<string, OperationTool>;

export const indexOperations = (tools: readonly OperationTool[]): OperationIndex =>
  new Map(tools.map((tool) => [tool.name, tool]));

/** A resource is offered when the operation that shows it exists in this build. */
export const availableResources = (operations: OperationIndex) =>
  ADMIN_RESOURCES.filter((resource) => operations.has(resource.list ?? resource.get ?? ''));

export const resourceByKey = (operations: OperationIndex, key: string) =>
  availableResources(operations).find((resource) => resource.key === key);

/** The resource an id belongs to, by its prefix (people go to Students). */
export const resourceOfId = (operations: OperationIndex, id: string) =>
  availableResources(operations).find((resource) => resource.prefix && id.startsWith(`${resource.prefix}_`));

/** The fields of a resource's generic forms: all of its operation's, but those a screen of its own edits. */
export const genericFields = <F extends { name: string }>(resource: AdminResource, fields: readonly F[]): F[] => {
  const replaced = new Set((resource.screens ?? []).flatMap((screen) => screen.replaces ?? []));
  return fields.filter((field) => !replaced.has(field.name));
};

/** The screens one object offers (a lesson's questions only when it is a quiz). */
export const screensOf = (resource: AdminResource, object: Record<string, unknown>) =>
  (resource.screens ?? []).filter((screen) => !screen.when || object[screen.when.field] === screen.when.is);

/** Where an operation acts: the path of the one object it takes (`/api/v1/courses/:id`) and what follows it. */
const objectPath = (operations: OperationIndex, resource: AdminResource) =>
  resource.get ? operations.get(resource.get)?.route.url : undefined;

const DESTRUCTIVE =
  /^(delete|archive|cancel|revoke|remove|unenroll|suspend|block|refund|unpublish|disable|unregister|hide)/;

/** Whether the admin asks "are you sure?" before running an operation. */
export const needsConfirmation = (tool: OperationTool) => tool.route.method === 'DELETE' || DESTRUCTIVE.test(tool.name);

/**
 * What can be done to one object of a resource: every write operation at its path or one step below it (publish,
 * archive, a child create), and the lists one step below it (a course's sections). Derived from the route table, so a
 * new action of the API is a new button here.
 */
export function objectOperations(operations: OperationIndex, resource: AdminResource) {
  const base = objectPath(operations, resource);
  const actions: OperationTool[] = [];
  const children: OperationTool[] = [];
  if (!base) return { actions, children };
  const below = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/[a-z-]+)*(/:[a-z_]+)?(/[a-z-]+)?$`);
  for (const tool of operations.values()) {
    if (tool.name === resource.update || tool.name === resource.get) continue;
    if (tool.route.url !== base && !below.test(tool.route.url)) continue;
    if (tool.route.method === 'GET') {
      if (tool.route.args.params.length === 1 && tool.route.url !== base) children.push(tool);
    } else actions.push(tool);
  }
  return { actions, children };
}
