/**
 * General-purpose word groups a task and an API summary use for one meaning. Each group's words
 * are searched as one term (its first word), in the index and in queries alike. They are
 * everyday English and the general wording of HTTP APIs (create / add / new / open / post;
 * watch / follow / subscribe; user / member / collaborator / who), written from general
 * knowledge and never from the evaluation's tasks: a group that only helps one task is not one.
 * The question words `who` / `whom`, `when`, `where` and `many` are in groups (user, time,
 * region, count), so a question finds what it asks about.
 *
 * @example
 * ```ts
 * import { DEFAULT_SYNONYMS, createToolSearch } from 'rcp-search';
 *
 * const search = createToolSearch(toolSet, { synonyms: [...DEFAULT_SYNONYMS, ['invoice', 'bill']] });
 * ```
 */
export const DEFAULT_SYNONYMS: readonly (readonly string[])[] = Object.freeze(
  [
    // actions
    ['create', 'add', 'new', 'make', 'register', 'insert', 'open', 'post', 'submit', 'generate', 'provision'],
    ['delete', 'remove', 'destroy', 'erase', 'drop', 'discard', 'purge', 'revoke', 'unset', 'clear', 'uninstall'],
    ['list', 'all', 'enumerate', 'browse', 'every'],
    ['get', 'fetch', 'retrieve', 'read', 'show', 'view', 'display', 'see', 'inspect', 'detail', 'describe'],
    ['update', 'edit', 'change', 'modify', 'alter', 'rename', 'set', 'patch', 'adjust'],
    ['search', 'find', 'query', 'lookup', 'look', 'filter'],
    ['typeahead', 'autocomplete', 'suggest', 'suggestion'],
    ['send', 'deliver', 'dispatch', 'transmit'],
    ['start', 'begin', 'launch', 'trigger', 'run', 'execute'],
    ['stop', 'halt', 'terminate', 'cancel', 'abort', 'kill'],
    ['pause', 'suspend', 'disable', 'deactivate'],
    ['resume', 'unpause', 'enable', 'activate', 'reactivate'],
    ['copy', 'duplicate', 'clone', 'replicate', 'replica'],
    ['move', 'transfer', 'relocate'],
    ['merge', 'combine', 'join', 'consolidate'],
    ['rollback', 'revert', 'undo', 'restore'],
    ['download', 'export'],
    ['upload', 'import'],
    ['zip', 'zipball', 'tarball', 'tar', 'compress', 'compressed'],
    ['approve', 'accept', 'allow', 'grant', 'permit'],
    ['reject', 'deny', 'decline', 'refuse'],
    ['verify', 'verification', 'validate', 'validation', 'confirm', 'prove'],
    ['assign', 'assignee', 'allocate'],
    ['invite', 'invitation'],
    ['watch', 'watcher', 'follow', 'follower', 'subscribe', 'subscriber', 'subscription'],
    ['notification', 'notify', 'alert', 'webhook', 'hook', 'callback'],
    ['block', 'ban'],
    ['mute', 'silence', 'snooze'],
    ['lock', 'freeze'],
    ['buy', 'purchase', 'acquire', 'rent'],
    ['sync', 'synchronize', 'refresh'],
    ['forward', 'redirect'],
    // who and what
    ['user', 'person', 'people', 'member', 'membership', 'contributor', 'collaborator', 'teammate', 'someone', 'somebody', 'who', 'whom'],
    ['authenticated', 'current', 'myself', 'self', 'whoami', 'logged'],
    ['organization', 'organisation', 'org', 'company'],
    ['team', 'group', 'squad'],
    ['repository', 'repo', 'codebase'],
    ['issue', 'ticket', 'bug'],
    ['task', 'todo'],
    ['comment', 'reply', 'remark'],
    ['reaction', 'react', 'emoji'],
    ['label', 'tag', 'topic', 'category'],
    ['file', 'document'],
    ['image', 'picture', 'photo', 'media'],
    ['email', 'mail'],
    ['message', 'sms', 'mms'],
    ['phone', 'telephone', 'mobile', 'cell'],
    ['call', 'ring', 'dial'],
    ['conference', 'meeting'],
    ['conversation', 'thread', 'discussion', 'chat'],
    ['transcription', 'transcript', 'caption'],
    // settings, access, money, usage
    ['setting', 'config', 'configuration', 'preference', 'option'],
    ['favorite', 'favourite', 'star', 'bookmark'],
    ['permission', 'access', 'privilege'],
    ['token', 'credential', 'secret'],
    ['billing', 'bill', 'invoice', 'cost', 'spend', 'spending', 'expense'],
    ['price', 'pricing'],
    ['payment', 'pay'],
    ['customer', 'client', 'buyer', 'shopper'],
    ['metric', 'usage', 'statistic', 'stats', 'utilization', 'consumption'],
    ['history', 'changelog', 'audit', 'timeline'],
    ['status', 'state'],
    ['uptime', 'availability', 'health', 'downtime', 'outage'],
    // infrastructure
    ['server', 'machine', 'instance', 'vm'],
    ['cpu', 'processor'],
    ['memory', 'ram'],
    ['volume', 'disk', 'storage', 'drive'],
    ['database', 'db', 'datastore'],
    ['node', 'worker'],
    ['domain', 'dns'],
    ['certificate', 'cert', 'ssl', 'tls'],
    ['backup', 'snapshot'],
    ['deployment', 'deploy', 'rollout'],
    ['release', 'version'],
    // time, place, amounts and other things
    ['template', 'blueprint', 'preset', 'boilerplate'],
    ['schedule', 'cron', 'timer', 'recurring'],
    ['region', 'location', 'zone', 'datacenter', 'where'],
    ['time', 'date', 'timestamp', 'when'],
    ['count', 'total', 'many'],
    ['limit', 'quota', 'threshold', 'cap', 'maximum'],
    ['error', 'failure', 'fault'],
    ['environment', 'env'],
    ['variable', 'var'],
    ['queue', 'waitlist'],
    ['priority', 'importance'],
    ['deadline', 'due'],
    ['dependency', 'depend', 'prerequisite', 'blocker'],
    ['goal', 'objective', 'okr'],
    ['announcement', 'banner', 'broadcast', 'notice'],
    ['feature', 'capability', 'flag', 'toggle'],
    ['expiration', 'expire', 'expiry'],
    ['workflow', 'pipeline', 'automation'],
    ['artifact', 'package'],
    ['pull', 'pr'],
    ['review', 'feedback'],
    ['product', 'sku'],
  ].map((group) => Object.freeze(group)),
);

/** Words that carry no meaning for finding a tool. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the of for to in on at by with from into onto about as and or is are be been being it its ' +
    'this that these those my me our us your you we i he she they them their his her which what how ' +
    'some any please can could would should do does did want need let there here via per so just also api'
  ).split(' '),
);
