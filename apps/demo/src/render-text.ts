import { layoutJson } from './json-layout';
import type { ServerLogEntry } from './learning-platform';
import type { CatalogTool, ModelResult } from './model';
import type { AttackRecord, CallRecord, DemoReport, PreparedRequestView, ReportSection } from './report';
import type { TerminalStyle } from './terminal-style';

/** Width the text is laid out for (headings, JSON that stays on one line). */
const WIDTH = 100;
/** Length of a section heading's rule. */
const RULE = 72;
/** Label column of a call: ` 1 model    ...`. */
const LABEL = 9;
const CALL_INDENT = '   ';

/** What each label of a call means, printed once per section. */
const LEGEND: Record<'server-log' | 'prepared', readonly [string, string][]> = {
  'server-log': [
    ['model', 'the tool call as the model emitted it (arguments: a JSON string)'],
    ['server', 'what reached the server, from its own log'],
    ['result', 'what goes back to the model (toModelResult)'],
  ],
  prepared: [
    ['model', 'the tool call as a model would emit it (arguments: a JSON string)'],
    ['request', 'what the client sent (client.prepare; credential redacted)'],
    ['result', 'what goes back to the model (toModelResult)'],
  ],
};

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function indentLines(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : prefix + line))
    .join('\n');
}

function heading(number: number, title: string, style: TerminalStyle): string {
  const text = `── ${number}. ${title} `;
  return style.bold(style.cyan(text + '─'.repeat(Math.max(3, RULE - text.length))));
}

/** A labelled block: the first line after the label, further lines aligned under it. */
function labelled(label: string, body: string, style: TerminalStyle): string {
  const prefix = CALL_INDENT + ' '.repeat(LABEL);
  const [first = '', ...rest] = body.split('\n');
  const head = CALL_INDENT + style.dim(pad(label, LABEL)) + first;
  return [head, ...rest.map((line) => prefix + line)].join('\n');
}

/** Word-wraps prose to fit after a call's label column (continuation lines align under it). */
function wrap(text: string, width = WIDTH - CALL_INDENT.length - LABEL): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/** JSON laid out to fit after a call's label column. */
function json(value: unknown): string {
  return layoutJson(value, { width: WIDTH - CALL_INDENT.length - LABEL });
}

function requestLine(entry: ServerLogEntry, style: TerminalStyle): string {
  const target = entry.query === '' ? entry.path : `${entry.path}?${entry.query}`;
  const status = entry.status >= 200 && entry.status < 300 ? style.green(String(entry.status)) : style.yellow(String(entry.status));
  return `${style.bold(entry.method)} ${target}  ${style.dim(`Authorization: ${entry.authorization}`)} → ${status}`;
}

function preparedLine(request: PreparedRequestView, style: TerminalStyle): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('  ');
  return `${style.bold(request.method)} ${request.url}${headers ? `  ${style.dim(headers)}` : ''}`;
}

/** What goes back to the model: `result <data>`, or `error <code> — <message>`. */
function resultLine(result: ModelResult, style: TerminalStyle): string {
  return result.ok
    ? labelled('result', json(result.data), style)
    : labelled('error', wrap(`${result.error.code} — ${result.error.message}`).split('\n').map(style.yellow).join('\n'), style);
}

function renderCall(record: CallRecord, index: number | undefined, style: TerminalStyle): string[] {
  const lines: string[] = [];
  const number = index === undefined ? '' : String(index);
  const modelLine = labelled('model', `${style.bold(record.call.name)} ${record.call.arguments}`, style);
  lines.push(number ? ` ${pad(number, CALL_INDENT.length - 1)}${modelLine.slice(CALL_INDENT.length)}` : modelLine);
  if (record.prepared) {
    lines.push(labelled('request', preparedLine(record.prepared, style), style));
    if (record.prepared.body !== undefined) lines.push(labelled('body', json(record.prepared.body), style));
  }
  if (record.requests) {
    if (record.requests.length === 0) lines.push(labelled('server', style.dim('nothing received'), style));
    for (const entry of record.requests) {
      lines.push(labelled('server', requestLine(entry, style), style));
      if (entry.body !== undefined) lines.push(labelled('body', json(entry.body), style));
    }
  }
  if (record.note !== undefined) lines.push(labelled('', style.dim(wrap(record.note)), style));
  lines.push(resultLine(record.result, style));
  return lines;
}

function parameterRows(tool: CatalogTool): string[][] {
  const schema = tool.parameters as { properties?: Record<string, { type?: unknown; description?: unknown }>; required?: unknown };
  const properties = schema.properties ?? {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => [
    name,
    typeof property.type === 'string' ? property.type : 'any',
    required.has(name) ? 'required' : 'optional',
    typeof property.description === 'string' ? property.description : '',
  ]);
}

function table(rows: readonly string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, column) => (widths[column] = Math.max(widths[column] ?? 0, cell.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : pad(cell, widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

function renderSection(section: ReportSection, number: number, style: TerminalStyle): string[] {
  const lines: string[] = [''];
  if (section.id !== 'summary') lines.push(heading(number, section.title, style));
  switch (section.id) {
    case 'describe': {
      lines.push(style.dim(`client.discover(${JSON.stringify(section.manifestUrl)}), then describeManifest(manifest, tools):`));
      lines.push('', indentLines(section.text, '  '));
      for (const warning of section.warnings) lines.push(style.yellow(`  ! ${warning}`));
      break;
    }
    case 'catalogs': {
      lines.push(style.dim('Each stage is a transport; catalog() is what the model is given: name, description, JSON Schema.'));
      const nameWidth = Math.max(0, ...section.stages.flatMap((stage) => stage.tools.map((tool) => tool.name.length)));
      for (const stage of section.stages) {
        const count = `${stage.tools.length} tool${stage.tools.length === 1 ? '' : 's'}`;
        lines.push('', `${style.bold(`stage "${stage.stage}"`)} · ${count}`);
        for (const tool of stage.tools) {
          lines.push(`  ${style.bold(pad(tool.name, nameWidth))}  ${tool.description}`);
          const rows = parameterRows(tool);
          const prefix = ' '.repeat(nameWidth + 6);
          if (rows.length === 0) lines.push(prefix + style.dim('(no parameters)'));
          for (const row of table(rows)) lines.push(prefix + row);
        }
      }
      lines.push('');
      if (section.hiddenParams.length === 0) {
        lines.push(style.dim('No resolvers registered: the model is asked for every declared param.'));
      } else {
        const names = section.hiddenParams.map((name) => `"${name}"`).join(', ');
        const one = section.hiddenParams.length === 1;
        lines.push(
          `${style.green('✓')} ${names} appear${one ? 's' : ''} in no catalog: the model cannot fill ${one ? 'it' : 'them'}, ` +
            `so it cannot spoof ${one ? 'it' : 'them'}.`,
          style.dim('  Every schema has additionalProperties: false, so an extra key is rejected, not ignored.'),
        );
      }
      break;
    }
    case 'turn': {
      lines.push(`stage "${section.stage}" · ctx ${JSON.stringify(section.ctx)}`);
      if (section.note !== undefined) lines.push(style.dim(section.note));
      lines.push('');
      const legend = LEGEND[section.witness];
      for (const [label, meaning] of legend) lines.push(style.dim(`${CALL_INDENT}${pad(label, LABEL)}${meaning}`));
      section.calls.forEach((record, index) => lines.push('', ...renderCall(record, index + 1, style)));
      break;
    }
    case 'attacks': {
      lines.push(style.dim('Each attack is a tool call a prompt-injected model could make. The server log is the judge.'));
      for (const attack of section.attacks) lines.push('', ...renderAttack(attack, style));
      break;
    }
    case 'server-log': {
      const rows = [
        ['#', 'method', 'path', 'query', 'authorization', 'status'],
        ...section.requests.map((entry) => [String(entry.seq), entry.method, entry.path, entry.query, entry.authorization, String(entry.status)]),
      ];
      const [head = '', ...body] = table(rows);
      lines.push(style.dim(`  ${head}`), ...body.map((row) => `  ${row}`));
      break;
    }
    case 'summary': {
      lines.push(section.ok ? style.bold(style.green(section.text)) : style.bold(style.red(section.text)));
      break;
    }
  }
  return lines;
}

function renderAttack(attack: AttackRecord, style: TerminalStyle): string[] {
  const mark = attack.stopped ? style.green('✓') : style.red('✗');
  const lines = [`${mark} ${style.bold(attack.title)}`];
  lines.push(labelled('rule', wrap(attack.rule), style));
  lines.push(
    labelled(
      'stopped',
      attack.stoppedBy === 'server'
        ? 'by the server (rcp-server), before any handler ran'
        : (attack.requests ?? []).length === 0
          ? 'by the client (rcp-client), before any request'
          : 'by the client (rcp-client): what it sent cannot reach another resource',
      style,
    ),
  );
  lines.push(labelled('turn', `stage "${attack.stage}" · ctx ${JSON.stringify(attack.ctx)}`, style));
  lines.push(labelled('model', `${style.bold(attack.call.name)} ${attack.call.arguments}`, style));
  const requests = attack.requests ?? [];
  if (requests.length === 0) {
    lines.push(labelled('server', `nothing received ${style.dim(`(request count stayed at ${attack.requestCountAfter})`)}`, style));
  }
  for (const entry of requests) {
    lines.push(labelled('server', requestLine(entry, style), style));
    if (entry.body !== undefined) lines.push(labelled('body', json(entry.body), style));
  }
  if (requests.length > 0) {
    lines.push(labelled('', style.dim(`(request count ${attack.requestCountBefore} → ${attack.requestCountAfter})`), style));
  }
  lines.push(resultLine(attack.result, style));
  if (!attack.stopped) lines.push(labelled('expected', style.red(attack.expected), style));
  return lines;
}

/**
 * Renders a report for people: one headed section per step, aligned labels, JSON laid out to
 * fit. Colour comes from `style` (a no-op style gives plain text).
 *
 * @example
 * ```ts
 * process.stdout.write(renderText(report, createTerminalStyle(false)));
 * ```
 */
export function renderText(report: DemoReport, style: TerminalStyle): string {
  const lines: string[] = [];
  lines.push(style.bold("RCP demo — an AI agent calls a learning platform's HTTP API through RCP"));
  lines.push(
    style.dim(`Embedded RCP server at ${new URL(report.manifestUrl).origin} (in memory, this machine only)`),
    style.dim('A scripted model (no API key), the rcp-sdk client, and the agent-core bridge with two stages'),
  );
  let number = 0;
  for (const section of report.sections) {
    if (section.id !== 'summary') number += 1;
    lines.push(...renderSection(section, number, style));
  }
  return `${lines.join('\n')}\n`;
}
