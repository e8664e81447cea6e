/**
 * What the OpenAPI and AsyncAPI documents both say of who publishes the API and under which licence: one place, so
 * the two documents cannot disagree.
 */
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  license?: string;
};

/** API_CONTACT_EMAIL when unset: a local address, as MAIL_FROM's default is; a deployment sets its own. */
export const DEFAULT_API_CONTACT_EMAIL = 'api@tms.localhost';

/** Who answers for this deployment's API (API_CONTACT_EMAIL), and its reference pages, which it serves itself. */
export const apiContact = (publicBaseUrl: string, email: string) => ({
  name: 'Transport Management Service API',
  url: `${publicBaseUrl.replace(/\/+$/, '')}/api/docs`,
  email,
});

/**
 * The licence package.json names; npm's UNLICENSED (no licence granted) while it names none. An SPDX identifier there
 * becomes the documents' `identifier`.
 */
export const API_LICENSE =
  pkg.license && pkg.license !== 'UNLICENSED'
    ? { name: pkg.license, identifier: pkg.license }
    : { name: 'UNLICENSED: no licence is granted' };
