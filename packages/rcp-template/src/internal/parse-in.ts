import { parseTemplate, type ParsedTemplate } from '../parse-template';
import { RcpTemplateError } from '../template-error';

/** Parses a template and, on a syntax error, says where the template is (`url`, `header "X"`, ...). */
export function parseIn(text: string, where: string): ParsedTemplate {
  try {
    return parseTemplate(text);
  } catch (error) {
    if (error instanceof RcpTemplateError) throw rewhere(error, where);
    throw error;
  }
}

function rewhere(error: RcpTemplateError, where: string): RcpTemplateError {
  return new RcpTemplateError('RCP_TEMPLATE_SYNTAX', `${where}: ${error.message}`, {
    offset: error.offset,
    template: error.template,
    cause: error,
  });
}

/** A syntax error about compile-time structure (not token grammar). */
export function structureError(where: string, template: string, offset: number, reason: string): RcpTemplateError {
  return new RcpTemplateError('RCP_TEMPLATE_SYNTAX', `${where}: invalid at offset ${offset}: ${reason}`, {
    offset,
    template,
  });
}

/**
 * Normalises one literal piece of the URL template `url` that starts at `offset` (`normalize`
 * returns the offset of a lone surrogate instead of text); a lone surrogate is a syntax error there.
 */
export function normalizeLiteral(normalize: (text: string) => string | number, piece: string, offset: number, url: string): string {
  if (piece === '') return piece;
  const normalized = normalize(piece);
  if (typeof normalized === 'number') {
    throw structureError('url', url, offset + normalized, 'not well-formed Unicode (lone surrogate)');
  }
  return normalized;
}
