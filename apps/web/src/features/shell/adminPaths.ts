// Admin paths the route files need: apart from model.ts, so a route does not pull the menus into
// the sign-in page's script.

/** Admin → Platform Configurations → Contact Requests: what the contact-us dialog sent. */
export const CONTACT_REQUESTS_PATH = '/admin/configuration/contact_requests'
