import { describe, expect, it } from 'vitest';
import { splitWords } from './split-words';
import { stem } from './stem';

describe('splitWords', () => {
  it('splits names on camelCase, PascalCase, acronyms, digits, _ - / and spaces, lower-cased', () => {
    expect(splitWords('listPullRequests')).toEqual(['list', 'pull', 'requests']);
    expect(splitWords('CreateIncomingPhoneNumber')).toEqual(['create', 'incoming', 'phone', 'number']);
    expect(splitWords('HTTPServer getV2Users')).toEqual(['http', 'server', 'get', 'v', '2', 'users']);
    expect(splitWords('repos/list-for-authenticated_user')).toEqual(['repos', 'list', 'for', 'authenticated', 'user']);
    expect(splitWords('learn__search_courses')).toEqual(['learn', 'search', 'courses']);
    expect(splitWords('  ')).toEqual([]);
    expect(splitWords('Créer une note')).toEqual(['créer', 'une', 'note']);
  });
});

describe('stem', () => {
  it('conflates plurals and verb endings, and leaves short words alone', () => {
    expect(stem('repositories')).toBe('repository');
    expect(stem('creating')).toBe(stem('created'));
    expect(stem('creates')).toBe(stem('create'));
    expect(stem('branches')).toBe(stem('branch'));
    expect(stem('stopped')).toBe('stop');
    expect(stem('issues')).toBe(stem('issue'));
    expect(stem('address')).toBe('address');
    expect(stem('status')).toBe('status');
    expect(stem('get')).toBe('get');
    expect(stem('v2')).toBe('v2');
  });
});
