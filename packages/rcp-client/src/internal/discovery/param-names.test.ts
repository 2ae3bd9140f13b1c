import { describe, expect, it } from 'vitest';
import { foldName, isNearMiss, looksLikeIdentity } from './param-names';

describe('isNearMiss', () => {
  it.each([
    ['userID', 'userId'],
    ['user_id', 'userId'],
    ['user-id', 'userId'],
    ['USERID', 'userId'],
    ['usrId', 'userId'],
    ['userIds', 'userId'],
    ['tenantld', 'tenantId'],
  ])('%s is a near miss of %s', (a, b) => {
    expect(isNearMiss(a, b)).toBe(true);
    expect(isNearMiss(b, a)).toBe(true);
  });

  it.each([
    ['userId', 'userId'],
    ['id', 'ids'],
    ['lang', 'long'],
    ['userId', 'courseId'],
    ['userId', 'usersIds'],
    ['query', 'q'],
  ])('%s is not a near miss of %s', (a, b) => {
    expect(isNearMiss(a, b)).toBe(false);
  });
});

describe('looksLikeIdentity', () => {
  it.each([
    'userId',
    'user_id',
    'UserID',
    'tenantId',
    'accountId',
    'orgId',
    'ownerId',
    'customer_id',
    'learnerId',
    'workspace-uuid',
    'uid',
    'email',
    'email_address',
    'customerEmail',
  ])('%s looks like an identity', (name) => expect(looksLikeIdentity(name)).toBe(true));
  it.each(['courseId', 'id', 'query', 'userName', 'noteId', 'users', 'emails', 'emailSubject', 'fromUid'])('%s does not', (name) =>
    expect(looksLikeIdentity(name)).toBe(false),
  );
});

it('foldName drops case, "_" and "-"', () => {
  expect(foldName('User_ID-x')).toBe('useridx');
});
