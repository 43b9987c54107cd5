import { ErrorCode } from './error-codes';
import { FormErrors } from '@acs/validation';
import {
  DEFAULT_LOCALE,
  MAX_EMAIL_LENGTH,
  MAX_GLOBAL_NAME_LENGTH,
  MAX_USERNAME_LENGTH,
  MIN_GLOBAL_NAME_LENGTH,
  MIN_USERNAME_LENGTH,
  PREMIUM_TYPES,
} from './limits';
import { SUPPORTED_LOCALES, type Locale } from '@acs/validation';
import {
  addChoicesError,
  addRequired,
  checkLength,
  getField,
  isAbsent,
  readInteger,
  readString,
  type JsonObject,
} from './read-value';

/** A user as `POST /admin/users` creates it. */
export interface NewUser {
  username: string;
  globalName: string | null;
  locale: Locale;
  email: string | null;
  premiumType: number;
}

// Deliberately loose: one @, something on each side, a dot in the domain, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Validates a `POST /admin/users` body; throws 400 / 50035 with every error found. */
export function validateNewUser(body: JsonObject): NewUser {
  const errors = new FormErrors();
  const user: NewUser = {
    username: '',
    globalName: null,
    locale: DEFAULT_LOCALE,
    email: null,
    premiumType: 0,
  };
  const field = (key: string): unknown => getField(body, key);

  if (isAbsent(field('username'))) addRequired(errors, ['username']);
  else {
    const username = readString(field('username'), errors, ['username']);
    if (
      username !== undefined &&
      checkLength(username, MIN_USERNAME_LENGTH, MAX_USERNAME_LENGTH, errors, ['username'])
    ) {
      user.username = username;
    }
  }
  if (!isAbsent(field('global_name'))) {
    const name = readString(field('global_name'), errors, ['global_name']);
    if (
      name !== undefined &&
      checkLength(name, MIN_GLOBAL_NAME_LENGTH, MAX_GLOBAL_NAME_LENGTH, errors, ['global_name'])
    ) {
      user.globalName = name;
    }
  }
  if (!isAbsent(field('locale'))) {
    const locale = readString(field('locale'), errors, ['locale']);
    if (locale !== undefined) {
      if ((SUPPORTED_LOCALES as readonly string[]).includes(locale)) user.locale = locale as Locale;
      else addChoicesError(SUPPORTED_LOCALES, errors, ['locale']);
    }
  }
  if (!isAbsent(field('email'))) {
    const email = readString(field('email'), errors, ['email']);
    if (email !== undefined && checkLength(email, 3, MAX_EMAIL_LENGTH, errors, ['email'])) {
      if (EMAIL_PATTERN.test(email)) user.email = email;
      else errors.add(['email'], ErrorCode.EMAIL_TYPE_INVALID_EMAIL, 'Not a well formed email address.');
    }
  }
  if (!isAbsent(field('premium_type'))) {
    const premiumType = readInteger(field('premium_type'), errors, ['premium_type']);
    if (premiumType !== undefined) {
      if ((PREMIUM_TYPES as readonly number[]).includes(premiumType)) user.premiumType = premiumType;
      else addChoicesError(PREMIUM_TYPES, errors, ['premium_type']);
    }
  }
  errors.throwIfAny();
  return user;
}
