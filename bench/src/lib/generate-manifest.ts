/**
 * A generated manifest of `count` tools cycling through six template shapes: path tokens, query
 * maps, literal query, headers, nested JSON bodies, a whole-body token, response mappings
 * (singular and wildcard) and a per-tool auth override. URLs are relative to the manifest URL.
 */
export function generateManifest(count: number): { rcpVersion: string; auth: unknown; tools: unknown[] } {
  const tools: unknown[] = [];
  for (let i = 0; i < count; i++) {
    switch (i % 6) {
      case 0:
        tools.push({
          name: `get_item_${i}`,
          description: `Fetches item ${i} by id, optionally filtered by a search term.`,
          method: 'GET',
          url: `/v1/items/{{itemId}}`,
          queryParams: { q: '{{q}}', limit: '{{limit}}' },
          params: [
            { name: 'itemId', type: 'string', description: 'The item id' },
            { name: 'q', description: 'Free-text filter' },
            { name: 'limit', type: 'integer', description: 'Page size' },
          ],
          responseMappings: { title: '@data.title', price: '@data.price.amount' },
        });
        break;
      case 1:
        tools.push({
          name: `create_order_${i}`,
          description: `Creates an order in shop ${i} for the signed-in customer.`,
          method: 'POST',
          url: `/v1/accounts/{{accountId}}/orders`,
          headers: { 'X-Request-Source': 'bench', 'X-Customer': '{{customer}}' },
          body: { item: '{{itemId}}', quantity: '{{quantity}}', note: 'order for {{customer}}', tags: ['bench', '{{tag}}'] },
          params: [
            { name: 'accountId', description: 'Account id' },
            { name: 'itemId', required: true, description: 'Item to order' },
            { name: 'quantity', type: 'number', required: true, description: 'How many' },
            { name: 'customer', description: 'Customer display name' },
            { name: 'tag', description: 'Optional tag' },
          ],
          responseMappings: { orderId: '@id', status: '@status' },
        });
        break;
      case 2:
        tools.push({
          name: `list_posts_${i}`,
          description: `Lists a user's posts in forum ${i}, newest first.`,
          method: 'GET',
          url: `/v2/users/{{userId}}/posts/{{postId}}?expand=author`,
          params: [
            { name: 'userId', description: 'User id' },
            { name: 'postId', description: 'Post id' },
          ],
          responseMappings: { title: '@data.title', tags: '@data.tags[*]', author: '@data.author.name' },
        });
        break;
      case 3:
        tools.push({
          name: `update_doc_${i}`,
          description: `Replaces one section of document set ${i}.`,
          method: 'PUT',
          url: `/v1/docs/{{docId}}/sections/{{section}}`,
          auth: { type: 'header', name: 'X-Api-Key' },
          body: { content: '{{content}}', meta: { author: '{{author}}', revision: '{{revision}}' } },
          params: [
            { name: 'docId', description: 'Document id' },
            { name: 'section', description: 'Section slug' },
            { name: 'content', required: true, description: 'New section text' },
            { name: 'author', description: 'Author name' },
            { name: 'revision', type: 'integer', description: 'Expected revision' },
          ],
        });
        break;
      case 4:
        tools.push({
          name: `end_session_${i}`,
          description: `Ends a session on device pool ${i}.`,
          method: 'DELETE',
          url: `/v1/sessions/{{sessionId}}?force=true`,
          headers: { 'X-Reason': '{{reason}}' },
          params: [
            { name: 'sessionId', description: 'Session id' },
            { name: 'reason', description: 'Why the session ends' },
          ],
        });
        break;
      default:
        tools.push({
          name: `patch_settings_${i}`,
          description: `Applies a settings patch to workspace ${i}.`,
          method: 'PATCH',
          url: `/v1/workspaces/{{workspaceId}}/settings`,
          queryParams: { dryRun: '{{dryRun}}', fields: '{{fields}}' },
          body: '{{patch}}',
          params: [
            { name: 'workspaceId', description: 'Workspace id' },
            { name: 'dryRun', type: 'boolean', description: 'Validate only' },
            { name: 'fields', type: 'array', description: 'Fields to return' },
            { name: 'patch', type: 'object', required: true, description: 'The settings patch' },
          ],
          responseMappings: { settings: '@' },
        });
    }
  }
  return { rcpVersion: '0.1', auth: { type: 'header', name: 'Authorization', scheme: 'Bearer' }, tools };
}
