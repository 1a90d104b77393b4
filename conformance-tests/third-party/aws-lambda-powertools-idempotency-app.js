'use strict';
// @aws-lambda-powertools/idempotency (pinned in package.json) around the tiny payments API, as an
// API behind API Gateway uses it: one Lambda handler per route, each wrapped by makeIdempotent
// with the DynamoDB persistence layer, the key taken from the Idempotency-Key header and the body
// validated against the stored one. DynamoDB is dynalite, in memory, in this process; API Gateway
// is the small adapter below: it builds an HTTP API (v2) event with lower-cased header names, gives
// each invocation a Lambda context whose deadline is LAMBDA_TIMEOUT_MS away (default 10 s), answers
// 504 when the deadline passes and lets the invocation commit nothing after it (as Lambda stops a
// timed-out invocation), and answers 500 {"message":"Internal Server Error"} to a handler that
// throws. The integrator's own mapping: IdempotencyValidationError -> 422,
// IdempotencyAlreadyInProgressError -> 409 with Retry-After: 1. Only loopback.
// Test hooks of this app's own shape: POST /_hooks/fault {"kind","ms","code"}, DELETE
// /_hooks/fault, GET /_hooks/effects -> {"effects": N} (one global counter of charges and refunds).

const http = require('http');
const dynalite = require('dynalite');
const { DynamoDBClient, CreateTableCommand } = require('@aws-sdk/client-dynamodb');
const {
  makeIdempotent,
  IdempotencyConfig,
  IdempotencyValidationError,
  IdempotencyAlreadyInProgressError,
} = require('@aws-lambda-powertools/idempotency');
const { DynamoDBPersistenceLayer } = require('@aws-lambda-powertools/idempotency/dynamodb');
const payments = require('./payments');

const LAMBDA_TIMEOUT_MS = Number(process.env.LAMBDA_TIMEOUT_MS || 10000);
const EXPIRES_AFTER_SECONDS = Number(process.env.EXPIRES_AFTER_SECONDS || 3600);
const TABLE = 'idempotency';

function json(status, body, headers = {}) {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

// The Lambda handlers: an API Gateway event in, an API Gateway result out. The guard throws once
// the invocation's deadline passed, so that a timed-out invocation commits nothing.
function handler(operation) {
  return async (event, context) => {
    const tenant = payments.tenantOf(event.headers.authorization);
    let body;
    try {
      body = JSON.parse(event.body || '{}');
    } catch (e) {
      return json(400, { error: { type: 'invalid_request_error', message: 'Body is not JSON' } });
    }
    const result = await operation(tenant, body, context.guard);
    return json(
      result.status,
      result.body,
      result.location ? { location: result.location } : {},
    );
  };
}

function idempotent(name, fn, persistenceStore) {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: 'headers."idempotency-key"',
    payloadValidationJmesPath: 'powertools_json(body)',
    expiresAfterSeconds: EXPIRES_AFTER_SECONDS,
  });
  return makeIdempotent(fn, { persistenceStore, config, keyPrefix: name });
}

async function main() {
  const db = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise((resolve) => db.listen(0, '127.0.0.1', resolve));
  const endpoint = 'http://127.0.0.1:' + db.address().port;
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await client.send(
    new CreateTableCommand({
      TableName: TABLE,
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  const store = () =>
    new DynamoDBPersistenceLayer({ tableName: TABLE, awsSdkV3Client: client });

  // One function per route, as API Gateway routes to separate Lambda functions.
  const routes = {
    'POST /v1/charges': idempotent(
      'charges-create',
      handler((tenant, body, guard) => payments.createCharge(tenant, body, guard)),
      store(),
    ),
    'POST /v1/refunds': idempotent(
      'refunds-create',
      handler((tenant, body, guard) => payments.createRefund(tenant, body, guard)),
      store(),
    ),
  };

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => serve(req, res, Buffer.concat(chunks).toString('utf8'), routes));
  });
  server.listen(Number(process.argv[2] || 0), '127.0.0.1', () => {
    console.log(
      '@aws-lambda-powertools/idempotency app listening on http://127.0.0.1:' +
        server.address().port,
    );
  });
}

function send(res, result) {
  res.writeHead(result.statusCode, result.headers || {});
  res.end(result.body || '');
}

async function serve(req, res, rawBody, routes) {
  const url = new URL(req.url, 'http://localhost');
  // API Gateway matches routes exactly; like most routers, this one ignores letter case and a
  // trailing slash.
  const path = url.pathname.replace(/\/+$/, '').toLowerCase() || '/';
  const route = req.method + ' ' + path;
  try {
    if (route === 'POST /_hooks/fault') {
      const f = JSON.parse(rawBody || '{}');
      payments.armFault(f.kind, f.ms, f.code);
      return send(res, json(200, {}));
    }
    if (route === 'DELETE /_hooks/fault') {
      payments.clearFault();
      return send(res, json(200, {}));
    }
    if (route === 'GET /_hooks/effects') {
      return send(res, json(200, { effects: payments.effects() }));
    }
    const tenant = payments.tenantOf(req.headers.authorization);
    if (!tenant) {
      return send(res, json(401, { message: 'Unauthorized' }));
    }
    if (req.method === 'GET' && path.startsWith('/v1/charges/')) {
      const r = payments.getCharge(tenant, path.substring('/v1/charges/'.length));
      return send(res, json(r.status, r.body));
    }
    if (route === 'GET /v1/charges') {
      const r = payments.listCharges(tenant, url.searchParams.get('description') ?? undefined);
      return send(res, json(r.status, r.body));
    }
    const fn = routes[route];
    if (!fn) {
      return send(res, json(404, { message: 'Not Found' }));
    }
    send(res, await invoke(fn, req, url, rawBody));
  } catch (e) {
    send(res, json(500, { message: 'Internal Server Error' }));
  }
}

// One Lambda invocation through API Gateway.
async function invoke(fn, req, url, rawBody) {
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const event = {
    version: '2.0',
    routeKey: req.method + ' ' + url.pathname,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    headers,
    requestContext: { http: { method: req.method, path: url.pathname } },
    body: rawBody,
    isBase64Encoded: false,
  };
  const deadline = Date.now() + LAMBDA_TIMEOUT_MS;
  let timedOut = false;
  const context = {
    functionName: 'payments',
    awsRequestId: payments.newRequestId(),
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    guard: () => {
      if (timedOut || Date.now() >= deadline) {
        throw new Error('Task timed out');
      }
    },
  };
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => {
      timedOut = true;
      resolve(json(504, { message: 'Endpoint request timed out' }));
    }, LAMBDA_TIMEOUT_MS);
  });
  const run = fn(event, context).then(
    (result) => result,
    (error) => {
      if (error instanceof IdempotencyValidationError) {
        return json(422, { message: error.message, type: error.name });
      }
      if (error instanceof IdempotencyAlreadyInProgressError) {
        return json(409, { message: error.message, type: error.name }, { 'retry-after': '1' });
      }
      return json(500, { message: 'Internal Server Error' });
    },
  );
  try {
    return await Promise.race([run, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
