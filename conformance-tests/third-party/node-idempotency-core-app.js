'use strict';
// @node-idempotency/core (pinned in package.json) with its in-memory storage adapter, used directly
// in an Express app as its README describes for frameworks without a plugin: onRequest before the
// handler (a stored response is sent as it is), onResponse with the response once the handler
// answered. The glue stores the status, the body and the Location header as the response's
// "additional" data; a handler that throws is answered 500 by the error handler below and stored
// the same way. IdempotencyError codes are answered: key missing or too long 400, fingerprint
// mismatch 422, in progress 409. Only loopback.
// Test hooks of this app's own shape: PUT /test/fault/{pause|fail-before|fail-after|hang|throw}
// ?ms=&code=, DELETE /test/fault, GET /test/effects -> {"effects": N} (one global counter).

const express = require('express');
const { Idempotency, IdempotencyError, IdempotencyErrorCodes } = require('@node-idempotency/core');
const { MemoryStorageAdapter } = require('@node-idempotency/storage-adapter-memory');
const payments = require('./payments');

const idempotency = new Idempotency(new MemoryStorageAdapter(), {
  cacheTTLMS: Number(process.env.CACHE_TTL_MS || 24 * 60 * 60 * 1000),
});

const app = express();
app.use(express.json());

app.put('/test/fault/:kind', (req, res) => {
  payments.armFault(req.params.kind, req.query.ms, req.query.code);
  res.status(204).end();
});
app.delete('/test/fault', (req, res) => {
  payments.clearFault();
  res.status(204).end();
});
app.get('/test/effects', (req, res) => res.json({ effects: payments.effects() }));

app.use((req, res, next) => {
  req.tenant = payments.tenantOf(req.get('Authorization'));
  if (!req.tenant) {
    return res.status(401).json({ error: { type: 'authentication_error' } });
  }
  next();
});

const STATUS = {
  [IdempotencyErrorCodes.IDEMPOTENCY_KEY_MISSING]: 400,
  [IdempotencyErrorCodes.IDEMPOTENCY_KEY_LEN_EXEEDED]: 400,
  [IdempotencyErrorCodes.IDEMPOTENCY_FINGERPRINT_MISSMATCH]: 422,
  [IdempotencyErrorCodes.REQUEST_IN_PROGRESS]: 409,
};

function params(req) {
  return { headers: req.headers, path: req.path, body: req.body, method: req.method };
}

function send(res, stored) {
  const extra = stored.additional || {};
  if (extra.location) {
    res.set('Location', extra.location);
  }
  res.status(extra.status || 200).json(stored.body);
}

// Before every POST handler: a stored response is sent; otherwise the response the handler (or
// the error handler) sends is stored once it is written.
app.post('*', async (req, res, next) => {
  let stored;
  try {
    stored = await idempotency.onRequest(params(req));
  } catch (e) {
    if (e instanceof IdempotencyError) {
      if (e.code === IdempotencyErrorCodes.REQUEST_IN_PROGRESS) {
        res.set('Retry-After', '1');
      }
      return res.status(STATUS[e.code] || 400).json({ error: { code: e.code, message: e.message } });
    }
    return next(e);
  }
  if (stored) {
    return send(res, stored);
  }
  const json = res.json.bind(res);
  res.json = (body) => {
    const response = {
      body,
      additional: { status: res.statusCode, location: res.get('Location') },
    };
    idempotency.onResponse(params(req), response).then(
      () => json(body),
      (e) => next(e),
    );
    return res;
  };
  next();
});

function reply(res, result) {
  if (result.location) {
    res.set('Location', result.location);
  }
  res.status(result.status).json(result.body);
}

function handled(handler) {
  return async (req, res, next) => {
    try {
      reply(res, await handler(req));
    } catch (e) {
      next(e);
    }
  };
}

app.post('/v1/charges', handled((req) => payments.createCharge(req.tenant, req.body)));
app.post('/v1/refunds', handled((req) => payments.createRefund(req.tenant, req.body)));
app.get('/v1/charges/:id', (req, res) => reply(res, payments.getCharge(req.tenant, req.params.id)));
app.get('/v1/charges', (req, res) =>
  reply(res, payments.listCharges(req.tenant, req.query.description)),
);

// A handler that throws: Express's own kind of 500, stored like any response.
app.use((err, req, res, next) => {
  res.status(500).json({ error: { message: 'Internal Server Error' } });
});

const port = Number(process.argv[2] || 0);
const server = app.listen(port, '127.0.0.1', () => {
  console.log('@node-idempotency/core app listening on http://127.0.0.1:' + server.address().port);
});
