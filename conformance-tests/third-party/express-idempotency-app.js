'use strict';
// express-idempotency (pinned in package.json) around the tiny payments API, wired as its README
// shows: app.post('*', idempotency()), handlers return early on isHit(req). Only loopback.
// Test hooks of this app's own shape: POST /__chaos {"kind","ms","code"}, DELETE /__chaos,
// GET /__effects -> {"effects": N} (one global counter).

const express = require('express');
const { idempotency, getSharedIdempotencyService } = require('express-idempotency');
const payments = require('./payments');

const app = express();
app.use(express.json());

app.post('/__chaos', (req, res) => {
  payments.armFault(req.body.kind, req.body.ms, req.body.code);
  res.status(204).end();
});
app.delete('/__chaos', (req, res) => {
  payments.clearFault();
  res.status(204).end();
});
app.get('/__effects', (req, res) => res.json({ effects: payments.effects() }));

app.use((req, res, next) => {
  req.tenant = payments.tenantOf(req.get('Authorization'));
  if (!req.tenant) {
    return res.status(401).json({ error: { type: 'authentication_error' } });
  }
  next();
});

app.post('*', idempotency());

function reply(res, result) {
  if (result.location) {
    res.set('Location', result.location);
  }
  res.status(result.status).json(result.body);
}

function keyed(handler) {
  return async (req, res, next) => {
    if (getSharedIdempotencyService().isHit(req)) {
      return; // the middleware answered with the stored response
    }
    try {
      reply(res, await handler(req));
    } catch (e) {
      next(e);
    }
  };
}

app.post('/v1/charges', keyed((req) => payments.createCharge(req.tenant, req.body)));
app.post('/v1/refunds', keyed((req) => payments.createRefund(req.tenant, req.body)));
app.get('/v1/charges/:id', (req, res) => reply(res, payments.getCharge(req.tenant, req.params.id)));
app.get('/v1/charges', (req, res) => reply(res, payments.listCharges(req.tenant, req.query.description)));

// Errors the middleware passes on with next(err) (409 in progress, 417 misuse) as JSON.
app.use((err, req, res, next) => {
  const status = res.statusCode >= 400 ? res.statusCode : 500;
  res.status(status).json({ error: { message: err.message } });
});

const port = Number(process.argv[2] || 0);
const server = app.listen(port, '127.0.0.1', () => {
  console.log('express-idempotency app listening on http://127.0.0.1:' + server.address().port);
});
