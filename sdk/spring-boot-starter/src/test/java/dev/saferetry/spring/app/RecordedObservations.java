package dev.saferetry.spring.app;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Component;

/** Keeps every observation the application's registry stopped, for the tests to inspect. */
@Component
public class RecordedObservations implements ObservationHandler<Observation.Context> {
  /** The stopped observations' contexts, in the order they stopped. */
  public final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

  @Override
  public void onStop(Observation.Context context) {
    stopped.add(context);
  }

  @Override
  public boolean supportsContext(Observation.Context context) {
    return true;
  }
}
