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

  // Regular English inflections of words an API names (written for this test, not taken from the
  // evaluation): every form of a family gets one stem. Four-letter words ending in a silent `e`
  // (code, name, move, type …) used to keep it while their -ed / -ing forms lost it, so `coded`
  // never met `code`. (Three-letter roots such as use / used / using stay apart.)
  const families: Record<string, readonly string[]> = {
    code: ['codes', 'coded', 'coding'],
    name: ['names', 'named', 'naming'],
    move: ['moves', 'moved', 'moving'],
    type: ['types', 'typed', 'typing'],
    file: ['files', 'filed', 'filing'],
    vote: ['votes', 'voted', 'voting'],
    make: ['makes', 'making'],
    save: ['saves', 'saved', 'saving'],
    page: ['pages', 'paged', 'paging'],
    date: ['dates', 'dated', 'dating'],
    like: ['likes', 'liked', 'liking'],
    create: ['creates', 'created', 'creating'],
    merge: ['merges', 'merged', 'merging'],
    archive: ['archives', 'archived', 'archiving'],
    queue: ['queues', 'queued', 'queuing'],
    copy: ['copies', 'copied', 'copying'],
    star: ['stars', 'starred', 'starring'],
    commit: ['commits', 'committed', 'committing'],
    fetch: ['fetches', 'fetched', 'fetching'],
    lock: ['locks', 'locked', 'locking'],
    add: ['adds', 'added', 'adding'],
    tree: ['trees'],
    repository: ['repositories'],
    // British and American spellings of a final l.
    cancel: ['cancels', 'cancelled', 'canceled', 'cancelling', 'canceling'],
    label: ['labels', 'labelled', 'labeled', 'labelling', 'labeling'],
    model: ['models', 'modelled', 'modeled', 'modelling'],
    enroll: ['enrolls', 'enrolled', 'enrolling', 'enrol', 'enrols'],
    install: ['installs', 'installed', 'installing'],
    call: ['calls', 'called', 'calling'],
    fill: ['fills', 'filled', 'filling'],
  };
  it.each(Object.entries(families))('gives every form of "%s" one stem', (base, forms) => {
    for (const form of forms) expect([form, stem(form)]).toEqual([form, stem(base)]);
  });

  it('keeps short words apart from the shorter words they would become without their e', () => {
    // A Twilio SID is not a side, CORS is not a core, a note is not `not`.
    const pairs: [string, string][] = [
      ['side', 'sid'],
      ['note', 'not'],
      ['core', 'cors'],
      ['mode', 'mod'],
      ['done', 'don'],
      ['come', 'com'],
      ['late', 'lat'],
    ];
    for (const [word, other] of pairs) expect([word, stem(word)]).not.toEqual([word, stem(other)]);
    expect(['hopped', 'fixed', 'keyed'].map((word) => stem(word))).toEqual(['hop', 'fix', 'key']);
    expect(stem('hoped')).toBe(stem('hope'));
  });
});
