'use strict';
// A tiny in-memory payments API shared by the apps around each middleware: charges, refunds,
// tenants from bearer tokens, and the faults the conformance suite injects into the next handler
// execution. The middleware under test decides what reaches these handlers.

const crypto = require('crypto');

const charges = new Map(); // id -> { tenant, charge }
let effects = 0; // every committed charge or refund
let nextFault = null; // { kind, millis, status }

function tenantOf(authorization) {
  const m = /^Bearer\s+(\S{1,200})$/i.exec(authorization || '');
  return m ? m[1] : null;
}

function newId(prefix) {
  return prefix + '_' + crypto.randomBytes(12).toString('hex');
}

function error(status, type, message) {
  return { status, body: { error: { type, message } } };
}

function armFault(kind, millis, status) {
  if (!['pause', 'fail-before', 'fail-after', 'hang', 'throw'].includes(kind)) {
    throw new Error('unknown fault ' + kind);
  }
  nextFault = { kind, millis: Number(millis) || 0, status: Number(status) || 500 };
}

function clearFault() {
  nextFault = null;
}

function takeFault() {
  const f = nextFault;
  nextFault = null;
  return f;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise(() => {});

// Runs one mutation with the armed fault, if any: { status, body, location } or never resolves.
// guard, when given, throws when the mutation may no longer commit (a timed-out invocation).
async function execute(commit, guard) {
  const fault = takeFault();
  if (fault && fault.kind === 'hang') {
    return never();
  }
  if (fault && fault.kind === 'pause') {
    await sleep(fault.millis);
  }
  if (fault && fault.kind === 'fail-before') {
    return error(fault.status, 'api_error', 'Injected failure before commit');
  }
  if (fault && fault.kind === 'throw') {
    // A bug in the handler: nothing committed, the framework's error handling answers.
    throw new Error('Injected unhandled exception');
  }
  if (guard) {
    guard();
  }
  const result = commit();
  if (result.status < 300) {
    effects++;
  }
  if (fault && fault.kind === 'fail-after') {
    return error(fault.status, 'api_error', 'Injected failure after commit');
  }
  return result;
}

function validCharge(body) {
  if (!body || !Number.isInteger(body.amount) || body.amount <= 0) {
    return 'amount must be a positive integer in minor units';
  }
  if (typeof body.currency !== 'string' || !/^[A-Za-z]{3}$/.test(body.currency)) {
    return 'currency must be a three-letter code';
  }
  return null;
}

function createCharge(tenant, body, guard) {
  const invalid = validCharge(body);
  if (invalid) {
    return Promise.resolve(error(400, 'invalid_request_error', invalid));
  }
  return execute(() => {
    const charge = {
      id: newId('ch'),
      object: 'charge',
      amount: body.amount,
      amount_refunded: 0,
      currency: body.currency.toLowerCase(),
      description: body.description ?? null,
      status: 'succeeded',
      created: Math.floor(Date.now() / 1000),
    };
    charges.set(charge.id, { tenant, charge });
    return { status: 201, body: charge, location: '/v1/charges/' + charge.id };
  }, guard);
}

function createRefund(tenant, body, guard) {
  if (!body || typeof body.charge !== 'string' || body.charge === '') {
    return Promise.resolve(error(400, 'invalid_request_error', 'charge is required'));
  }
  return execute(() => {
    const found = charges.get(body.charge);
    if (!found || found.tenant !== tenant) {
      return error(404, 'invalid_request_error', 'No such charge: ' + body.charge);
    }
    const c = found.charge;
    const amount = Number.isInteger(body.amount) ? body.amount : c.amount - c.amount_refunded;
    if (amount <= 0 || c.amount_refunded + amount > c.amount) {
      return error(400, 'invalid_request_error', 'Refund amount exceeds the charge');
    }
    c.amount_refunded += amount;
    const refund = { id: newId('re'), object: 'refund', charge: c.id, amount, status: 'succeeded' };
    return { status: 201, body: refund };
  }, guard);
}

function getCharge(tenant, id) {
  const found = charges.get(id);
  return found && found.tenant === tenant
    ? { status: 200, body: found.charge }
    : error(404, 'invalid_request_error', 'No such charge');
}

function listCharges(tenant, description) {
  const data = [...charges.values()]
    .filter((c) => c.tenant === tenant)
    .map((c) => c.charge)
    .filter((c) => description === undefined || c.description === description);
  return { status: 200, body: { object: 'list', data } };
}

module.exports = {
  tenantOf,
  newRequestId: () => newId('req'),
  armFault,
  clearFault,
  createCharge,
  createRefund,
  getCharge,
  listCharges,
  effects: () => effects,
};
