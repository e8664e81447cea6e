import { p } from '@mikro-orm/core';

/** Timestamps every table carries. */
export const timestamps = {
  createdAt: p.datetime().onCreate(() => new Date()),
  updatedAt: p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date()),
};
