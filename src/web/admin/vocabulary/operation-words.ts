/**
 * What the admin says about each write of the API, by operationId: the button, the heading of its screen, what it
 * does (`about`), the question asked first when it takes something away (`confirm`) and the line shown once done.
 * The vocabulary test fails on an operation without an entry, and on one that asks for a confirmation without words.
 */
export type OperationWords = { button: string; title?: string; about?: string; confirm?: string; done: string };

const w = (button: string, done: string, more: Omit<OperationWords, 'button' | 'done'> = {}): OperationWords => ({
  button,
  done,
  ...more,
});

export const OPERATION_WORDS: Record<string, OperationWords> = {
  // Courses and their curriculum.
  createCourse: w('Create course', 'The course was created as a draft.', { title: 'New course' }),
  updateCourse: w('Save changes', 'The course was saved.'),
  deleteCourse: w('Delete', 'The course was deleted.', {
    title: 'Delete the course',
    confirm: 'Delete this draft course for good?',
  }),
  publishCourse: w('Publish', 'The course is published.', { title: 'Publish the course' }),
  publishCourseWithContents: w(
    'Publish with its sections and lessons',
    'The course is published with its sections and lessons.',
    {
      title: 'Publish the course with its sections and lessons',
    },
  ),
  unpublishCourse: w('Unpublish', 'The course is a draft again.', {
    title: 'Unpublish the course',
    confirm: 'Take this course off the site? It goes back to draft.',
  }),
  archiveCourse: w('Archive', 'The course was archived.', {
    title: 'Archive the course',
    confirm: 'Archive this course? It leaves the catalog; enrolled students keep their access.',
  }),
  createSection: w('Add a section', 'The section was added.', { title: 'New section' }),
  reorderSections: w('Reorder sections', 'The sections were put in their new order.', {
    about: 'Put every section of the course in the order students should see them.',
  }),
  updateSection: w('Save changes', 'The section was saved.'),
  deleteSection: w('Delete', 'The section was deleted.', {
    title: 'Delete the section',
    confirm: 'Delete this empty section?',
  }),
  publishSection: w('Publish', 'The section is published.', { title: 'Publish the section' }),
  unpublishSection: w('Unpublish', 'The section is a draft again.', {
    title: 'Unpublish the section',
    confirm: 'Take this section off the course? Its lessons are hidden until you publish it again.',
  }),
  createLesson: w('Add a lesson', 'The lesson was added.', { title: 'New lesson' }),
  reorderLessons: w('Reorder lessons', 'The lessons were put in their new order.', {
    about: 'Put every lesson of the section in the order students should take them.',
  }),
  updateLesson: w('Save changes', 'The lesson was saved.'),
  deleteLesson: w('Delete', 'The lesson was deleted.', {
    title: 'Delete the lesson',
    confirm: 'Delete this draft lesson for good?',
  }),
  moveLesson: w('Move to another section', 'The lesson was moved.', { title: 'Move the lesson' }),
  publishLesson: w('Publish', 'The lesson is published.', {
    title: 'Publish the lesson',
    about: 'A lesson needs its content first: its text, or its file for a video, audio, PDF or download.',
  }),
  unpublishLesson: w('Unpublish', 'The lesson is a draft again.', {
    title: 'Unpublish the lesson',
    confirm: 'Take this lesson off the course? It goes back to draft.',
  }),

  // Lecturers.
  createLecturer: w('Create lecturer', 'The lecturer was created.', { title: 'New lecturer' }),
  updateLecturer: w('Save changes', 'The lecturer was saved.'),
  deleteLecturer: w('Delete', 'The lecturer was deleted.', {
    title: 'Delete the lecturer',
    confirm: 'Delete this lecturer for good? Only a lecturer on no course can be deleted.',
  }),
  archiveLecturer: w('Archive', 'The lecturer was archived.', {
    title: 'Archive the lecturer',
    confirm: 'Archive this lecturer? They are hidden from the site; their courses still name them.',
  }),
  restoreLecturer: w('Restore', 'The lecturer is shown again.', { title: 'Restore the lecturer' }),

  // School and appearance.
  updateSchool: w('Save changes', 'The school’s settings were saved.'),
  updateAppearance: w('Save changes', 'The look of the site was saved.'),

  // Pages, forms, posts, comments.
  createPage: w('Create page', 'The page was created as a draft.', { title: 'New page' }),
  updatePage: w('Save changes', 'The page was saved. Publish it to show the changes on the site.'),
  deletePage: w('Delete', 'The page was deleted.', {
    title: 'Delete the page',
    confirm: 'Delete this page for good?',
  }),
  publishPage: w('Publish', 'The page is published.', { title: 'Publish the page' }),
  unpublishPage: w('Unpublish', 'The page is off the site.', {
    title: 'Unpublish the page',
    confirm: 'Take this page off the site? Its text is kept as a draft.',
  }),
  createForm: w('Create form', 'The form was created.', { title: 'New form' }),
  updateForm: w('Save changes', 'The form was saved.'),
  deleteForm: w('Delete', 'The form was deleted.', {
    title: 'Delete the form',
    confirm: 'Delete this form for good? Only a form nobody has answered can be deleted.',
  }),
  createPost: w('Create post', 'The post was created as a draft.', { title: 'New post' }),
  updatePost: w('Save changes', 'The post was saved.'),
  deletePost: w('Delete', 'The post was deleted.', {
    title: 'Delete the post',
    confirm: 'Delete this post and its comments for good?',
  }),
  schedulePost: w('Schedule', 'The post will publish itself at the time you chose.', {
    title: 'Schedule the post',
  }),
  publishPost: w('Publish now', 'The post is published.', { title: 'Publish the post' }),
  unpublishPost: w('Unpublish', 'The post is a draft again.', {
    title: 'Unpublish the post',
    confirm: 'Take this post off the site? It goes back to draft.',
  }),
  hideComment: w('Hide', 'The comment is hidden.', {
    title: 'Hide the comment',
    confirm: 'Hide this comment? Only staff will see it.',
  }),
  restoreComment: w('Show again', 'The comment is shown again.', { title: 'Show the comment again' }),
  deleteComment: w('Delete', 'The comment was deleted.', {
    title: 'Delete the comment',
    confirm: 'Delete this comment? Its text is erased for good.',
  }),

  // Certificates.
  revokeCertificate: w('Revoke', 'The certificate was revoked.', {
    title: 'Revoke the certificate',
    confirm: 'Revoke this certificate? Anyone who checks it is told it was revoked.',
  }),

  // The signed-in person's own account (offered to staff for themselves).
  updateAccount: w('Save changes', 'Your account was saved.', { title: 'Your account' }),
  changePassword: w('Change password', 'Your password was changed; your other browsers are signed out.', {
    title: 'Change your password',
  }),
  sendVerificationEmail: w('Send the link', 'A link to confirm your e-mail address is on its way.', {
    title: 'Confirm your e-mail address',
  }),
  revokeConnectedApp: w('Disconnect', 'The app was disconnected.', {
    title: 'Disconnect an app',
    confirm: 'Disconnect this app from your account? It stops working for you at once.',
  }),
  endAccountSession: w('Sign out', 'That browser was signed out.', {
    title: 'Sign a browser out',
    confirm: 'Sign that browser out?',
  }),
  deleteAccount: w('Delete my account', 'Your account was deleted.', {
    title: 'Delete your account',
    confirm: 'Delete your account for good? Orders are kept without your name.',
  }),

  // Students.
  createStudent: w('Invite', 'The student was invited by e-mail.', {
    title: 'Invite a student',
    about: 'They get an e-mail to choose a password. Someone already here keeps their account and gets the new name.',
  }),
  bulkEnrollStudents: w('Enroll them', 'The enrollment started; it runs in the background.', {
    title: 'Enroll many people at once',
  }),
  updateStudent: w('Save changes', 'The student was saved.'),
  suspendStudent: w('Suspend', 'The student is suspended and signed out everywhere.', {
    title: 'Suspend the student',
    confirm: 'Suspend this student? They are signed out at once and cannot sign in until reactivated.',
  }),
  reactivateStudent: w('Reactivate', 'The student can sign in again.', { title: 'Reactivate the student' }),
  enrollStudent: w('Enroll in a course', 'The student was enrolled.', { title: 'Enroll in a course' }),
  unenrollStudent: w('Unenroll from a course', 'The student was unenrolled.', {
    title: 'Unenroll from a course',
    confirm: 'Unenroll this student? Their access ends; their progress is kept.',
  }),
  completeStudentLesson: w('Mark a lesson complete', 'The lesson was marked complete.', {
    title: 'Mark a lesson complete',
  }),
  completeMyLesson: w('Mark complete', 'The lesson was marked complete.', {
    title: 'Mark one of your lessons complete',
  }),
  submitMyQuizAttempt: w('Send answers', 'Your answers were sent.', { title: 'Answer a quiz' }),
  enrollMyself: w('Enroll', 'You are enrolled.', { title: 'Enroll yourself in a free course' }),

  // Staff and apps.
  inviteStaff: w('Invite', 'The invitation was sent.', { title: 'Invite staff' }),
  updateStaffRole: w('Save role', 'The role was changed.', { title: 'Change the role' }),
  removeStaff: w('Remove from staff', 'They were removed from the staff and are a student now.', {
    title: 'Remove from the staff',
    confirm: 'Remove this person from the staff? They keep an account as a student.',
  }),
  revokeOAuthClientGrants: w('Disconnect everyone', 'Everyone who connected the app was disconnected.', {
    title: 'Disconnect everyone from the app',
    confirm: 'Disconnect every person from this app? It stops working for all of them at once.',
  }),
  blockOAuthClient: w('Block', 'The app is blocked.', {
    title: 'Block the app',
    confirm: 'Block this app? Everyone is disconnected and it cannot connect again.',
  }),
  unblockOAuthClient: w('Unblock', 'The app is unblocked; people connect it again themselves.', {
    title: 'Unblock the app',
  }),

  // Sales.
  startCheckout: w('Buy', 'Your order was made.', { title: 'Buy something yourself' }),
  refundOrder: w('Refund', 'The refund was made.', {
    title: 'Refund the order',
    about: 'Give back all of the order or part of it.',
    confirm: 'Refund this order? The money goes back to the customer and cannot be taken again.',
  }),
  createAsset: w('Start the upload', 'The upload was started.', { title: 'Upload a file' }),
  createMembershipPlan: w('Create plan', 'The plan was created. Give it a price to sell it.', { title: 'New plan' }),
  updateMembershipPlan: w('Save changes', 'The plan was saved.'),
  deleteMembershipPlan: w('Delete', 'The plan was deleted.', {
    title: 'Delete the plan',
    confirm: 'Delete this plan for good? Only a plan nobody ever held can be deleted.',
  }),
  archiveMembershipPlan: w('Archive', 'The plan was archived.', {
    title: 'Archive the plan',
    confirm: 'Archive this plan? It is no longer sold; its members keep it.',
  }),
  createPlanPrice: w('Add a price', 'The price was added.', {
    title: 'New price',
    about: 'A price is never changed: to change one, archive it and add another.',
  }),
  archivePlanPrice: w('Archive a price', 'The price was archived.', {
    title: 'Archive a price',
    confirm: 'Archive this price? It is no longer sold; subscriptions on it go on renewing.',
  }),
  cancelSubscription: w('Cancel', 'The subscription was cancelled.', {
    title: 'Cancel the subscription',
    confirm: 'Cancel this subscription?',
  }),
  resumeSubscription: w('Resume', 'The subscription goes on.', { title: 'Resume the subscription' }),
  pauseSubscription: w('Pause', 'The subscription is paused.', {
    title: 'Pause the subscription',
    about: 'While paused, its courses are closed and it does not renew.',
  }),
  changeSubscriptionPlan: w('Change plan', 'From the next period it renews on the new price.', {
    title: 'Change the plan',
  }),
  cancelMySubscription: w('Cancel', 'Your subscription was cancelled.', {
    title: 'Cancel your subscription',
    confirm: 'Cancel your subscription?',
  }),
  resumeMySubscription: w('Resume', 'Your subscription goes on.', { title: 'Resume your subscription' }),
  createMember: w('Add member', 'The member was added.', {
    title: 'Add a member',
    about: 'A free member. Someone new gets an e-mail to choose a password.',
  }),
  updateMember: w('Save changes', 'The member was saved.'),
  deleteMember: w('Remove', 'The member was removed; their account stays.', {
    title: 'Remove the member',
    confirm: 'Remove this member? Their account stays.',
  }),
  compMember: w('Give a plan free', 'The plan was given; its courses are open to them.', {
    title: 'Give a plan free',
  }),
  removeMemberComp: w('Take back the free plan', 'The free plan was taken back.', {
    title: 'Take back the free plan',
    confirm: 'Take back the free plan? Its courses close unless they pay for the plan.',
  }),
  createCoupon: w('Create coupon', 'The coupon was created.', { title: 'New coupon' }),
  bulkCreateCoupons: w('Create codes', 'The codes were created.', {
    title: 'Create codes in bulk',
    about: 'Up to 1,000 codes at once, each used like a coupon, all on the same terms.',
  }),
  updateCoupon: w('Save changes', 'The coupon was saved.'),
  deleteCoupon: w('Delete', 'The coupon was deleted.', {
    title: 'Delete the coupon',
    confirm: 'Delete this coupon for good? Only one never used can be deleted.',
  }),
  disableCoupon: w('Disable', 'The coupon can no longer be used.', {
    title: 'Disable the coupon',
    confirm: 'Disable this coupon? Orders that used it keep their discount.',
  }),
  enableCoupon: w('Enable', 'The coupon can be used again.', { title: 'Enable the coupon' }),
  createDigitalProduct: w('Create product', 'The product was created as a draft.', { title: 'New digital product' }),
  updateDigitalProduct: w('Save changes', 'The product was saved.'),
  deleteDigitalProduct: w('Delete', 'The product was deleted.', {
    title: 'Delete the product',
    confirm: 'Delete this product for good?',
  }),
  publishDigitalProduct: w('Publish', 'The product is published.', {
    title: 'Publish the product',
    about: 'A product needs at least one file first.',
  }),
  archiveDigitalProduct: w('Archive', 'The product was archived.', {
    title: 'Archive the product',
    confirm: 'Archive this product? It is no longer sold; buyers keep their downloads.',
  }),
  grantDigitalProduct: w('Give to someone', 'The product was given.', { title: 'Give the product to someone' }),
  revokeDigitalProductGrant: w('Take back from someone', 'The product was taken back.', {
    title: 'Take the product back',
    confirm: 'Take this product back? Their downloads stop.',
  }),

  // Events.
  createEvent: w('Create event', 'The event was created.', { title: 'New event' }),
  updateEvent: w('Save changes', 'The event was saved. A new time is e-mailed to everyone registered.'),
  deleteEvent: w('Delete', 'The event was deleted.', {
    title: 'Delete the event',
    confirm: 'Delete this event for good? Only one nobody registered for can be deleted.',
  }),
  cancelEvent: w('Cancel the event', 'The event was cancelled; everyone registered was told.', {
    title: 'Cancel the event',
    confirm: 'Cancel this event? Everyone registered or waiting is told by e-mail.',
  }),
  registerForEvent: w('Register', 'You are registered.', { title: 'Register yourself' }),
  unregisterFromEvent: w('Give up my seat', 'Your seat was given up.', {
    title: 'Give up your seat',
    confirm: 'Give up your seat?',
  }),
  createEventRegistration: w('Register someone', 'They are registered.', { title: 'Register someone' }),
  cancelEventRegistration: w('End a registration', 'The registration was ended.', {
    title: 'End a registration',
    confirm: 'End this registration? A freed seat goes to the first person waiting.',
  }),
  recordEventAttendance: w('Record attendance', 'The attendance was recorded.', { title: 'Record attendance' }),
};

/** Headings of the lists shown on an object's page (a course's sections), by their list operation. */
export const LIST_WORDS: Record<string, string> = {
  listSections: 'Sections',
  listLessons: 'Lessons',
  listStudentEnrollments: 'Enrollments',
  listStudentQuizAttempts: 'Quiz attempts',
  listOrderPayments: 'Payments and refunds',
  listPlanPrices: 'Prices',
  listFormSubmissions: 'Answers',
  listDigitalProductGrants: 'People who have it',
  listEventRegistrations: 'Registrations',
  getDigitalProductDownloads: 'Downloads',
  getStudentProgress: 'Progress',
  getBulkEnrollment: 'Bulk enrollment',
  getCourseStats: 'Figures',
};
