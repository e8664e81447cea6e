/** Identity: sign-in, bearer tokens, the caller's own profile; businesses and users. */
import { defineModule } from '../../platform/module.ts';
import { AuthToken, Business, User } from './entities.ts';
import { IDENTITY_MESSAGES } from './messages.ts';
import { login, logout, me } from './operations.ts';
import { callerForSessionToken } from './repo.ts';

export { Business, User } from './entities.ts';
export { findDeliveryProvider, type AppBinding } from './repo.ts';
export { accountForPassword, openSession } from './session.ts';
export { signInAllowed, type SignInAllowedHook, type SigningIn } from './hooks.ts';

export const identity = defineModule({
  name: 'identity',
  tags: {
    User: "Sign in and out, and read who you are. The other operations take the bearer token `user_login` answers, or a key of their own kind: a locker's device key, a place's scanner key, an OTEP ingest key.",
  },
  operations: [login, logout, me],
  entities: [Business, User, AuthToken],
  messages: IDENTITY_MESSAGES,
  credentials: [{ prefix: '', resolve: callerForSessionToken, cached: true }],
});
