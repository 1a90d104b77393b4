'use strict';
// @node-idempotency/nestjs (pinned in package.json) around the tiny payments API: its
// NodeIdempotencyModule with the in-memory storage and its interceptor on the payments controller,
// as its README shows, written in plain JavaScript (decorators applied as functions). Only loopback.
// CACHE_TTL_MS sets the package's cacheTTLMS (default: the package's 24 h).
// Test hooks of this app's own shape: PUT /test-hooks/fault/{pause|fail-before|fail-after|hang|throw}
// ?status=N&millis=M, DELETE /test-hooks/fault; effects are counted through GET /v1/charges.

require('reflect-metadata');
const common = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { NodeIdempotencyModule, NodeIdempotencyInterceptor } = require('@node-idempotency/nestjs');
const payments = require('./payments');

const decorate = (target, decorators, key) =>
  key === undefined
    ? Reflect.decorate(decorators, target)
    : Reflect.decorate(decorators, target.prototype, key, Object.getOwnPropertyDescriptor(target.prototype, key));

function tenant(req) {
  const t = payments.tenantOf(req.headers.authorization);
  if (!t) {
    throw new common.UnauthorizedException();
  }
  return t;
}

// Turns a payments result into what Nest sends: the body, or an HttpException for 4xx/5xx.
function answer(req, res, result) {
  if (result.status >= 400) {
    throw new common.HttpException(result.body, result.status);
  }
  res.status(result.status);
  if (result.location) {
    res.set('Location', result.location);
  }
  return result.body;
}

class PaymentsController {
  async createCharge(req, res) {
    return answer(req, res, await payments.createCharge(tenant(req), req.body));
  }
  async createRefund(req, res) {
    return answer(req, res, await payments.createRefund(tenant(req), req.body));
  }
  getCharge(req, res) {
    return answer(req, res, payments.getCharge(tenant(req), req.params.id));
  }
  listCharges(req, res) {
    return answer(req, res, payments.listCharges(tenant(req), req.query.description));
  }
}
const route = (method, path, key) => {
  decorate(PaymentsController, [method(path)], key);
  common.Req()(PaymentsController.prototype, key, 0);
  common.Res({ passthrough: true })(PaymentsController.prototype, key, 1);
};
route(common.Post, 'charges', 'createCharge');
route(common.Post, 'refunds', 'createRefund');
route(common.Get, 'charges/:id', 'getCharge');
route(common.Get, 'charges', 'listCharges');
decorate(PaymentsController, [common.Controller('v1'), common.UseInterceptors(NodeIdempotencyInterceptor)]);

class TestHooksController {
  arm(req) {
    payments.armFault(req.params.kind, req.query.millis, req.query.status);
  }
  clear() {
    payments.clearFault();
  }
}
decorate(TestHooksController, [common.Put('fault/:kind'), common.HttpCode(204)], 'arm');
common.Req()(TestHooksController.prototype, 'arm', 0);
decorate(TestHooksController, [common.Delete('fault'), common.HttpCode(204)], 'clear');
decorate(TestHooksController, [common.Controller('test-hooks')]);

const ttl = process.env.CACHE_TTL_MS ? { cacheTTLMS: Number(process.env.CACHE_TTL_MS) } : {};
class AppModule {}
decorate(AppModule, [
  common.Module({
    imports: [NodeIdempotencyModule.forRootAsync({ storage: { adapter: 'memory' }, ...ttl })],
    controllers: [PaymentsController, TestHooksController],
  }),
]);

(async () => {
  const app = await NestFactory.create(AppModule, { logger: ['error', 'warn'] });
  await app.listen(Number(process.argv[2] || 0), '127.0.0.1');
  console.log('@node-idempotency/nestjs app listening on ' + (await app.getUrl()).replace('[::1]', '127.0.0.1'));
})();
