package dev.saferetry.examples.checkout;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** {@code POST /orders} places an order; {@code GET /orders/{id}} shows its status. */
@RestController
class CheckoutController {
  private final OrderService orders;

  CheckoutController(OrderService orders) {
    this.orders = orders;
  }

  /**
   * An order to place.
   *
   * @param id the order id
   * @param amount minor units
   * @param currency three-letter code
   */
  record NewOrder(String id, long amount, String currency) {}

  @PostMapping("/orders")
  ResponseEntity<String> place(@RequestBody NewOrder order) {
    orders.place(order.id(), order.amount(), order.currency());
    return ResponseEntity.status(HttpStatus.CREATED).body("PLACED");
  }

  @GetMapping("/orders/{id}")
  ResponseEntity<String> status(@PathVariable("id") String id) {
    return ResponseEntity.of(orders.status(id));
  }
}
