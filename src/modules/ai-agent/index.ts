/**
 * The Operations AI Agent, an opt-in family (issue 35 section 4; docs/opt-in-families.md): a person's question
 * answered by an OpenAI-compatible model that may call the MCP user server's tools with that person's rights, writes
 * going through the approval queue, each turn counted against the business's daily cap. It offers the catalog's
 * tools, so it is given the catalog rather than importing it.
 */
import type { Operation } from '../../platform/catalog/types.ts';
import { defineModule } from '../../platform/module.ts';
import { AI_AGENT_ERRORS } from './errorCodes.ts';
import { AI_AGENT_MESSAGES } from './messages.ts';
import { aiAgentOperations } from './operations.ts';

export const aiAgent = (catalog: () => readonly Operation[]) =>
  defineModule({
    name: 'ai-agent',
    tags: {
      'Operations AI Agent':
        "Ask questions of an AI model that reads the business's data through the MCP tools the person may use; the writes it wants wait in the approval queue. Opt-in per business, with a daily turn cap.",
    },
    operations: aiAgentOperations(catalog),
    messages: AI_AGENT_MESSAGES,
    errorCodes: AI_AGENT_ERRORS,
  });
