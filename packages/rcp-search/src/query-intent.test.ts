import { describe, expect, it } from 'vitest';
import { queryIntent } from './query-intent';

/** Issue 41, item 4: which queries are read questions (the first action verb decides; else a question word). */
const same = (word: string) => word;

describe('queryIntent', () => {
  it.each([
    ['list the invoices of a customer', { read: true, verbTerm: 'list' }],
    ['show open pull requests', { read: true, verbTerm: 'show' }],
    ['find a customer by email', { read: true, verbTerm: 'find' }],
    ['check the status of a payout', { read: true, verbTerm: 'check' }],
    ['see all subscriptions', { read: true, verbTerm: 'see' }],
    ['how much money do I have', { read: true }],
    ['who starred this repository', { read: true }],
    ['open a new bug report', { read: false }],
    ['delete all comments', { read: false }],
    ['how do I create a customer', { read: false }],
    ['refund a charge', { read: false }],
    ['repository topics', { read: false }],
  ])('%j → %j', (query, intent) => {
    expect(queryIntent(query, same)).toEqual(intent);
  });

  it("the read verb's term is the search's own (find → search with the default synonyms)", () => {
    expect(queryIntent('Find issues', (word) => (word === 'find' ? 'search' : word))).toEqual({ read: true, verbTerm: 'search' });
  });
});
