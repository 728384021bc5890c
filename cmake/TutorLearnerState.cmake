# Tests never touch the learner's own state: their progress file and their lab files. Every test
# requires the fixture "learner_state", whose setup copies that state before the first test and
# whose cleanup, after the last, fails if any test changed it (tests/learner_state_guard.cpp).
# Fixtures are per test, so each directory that adds tests hands them over at its end, and the
# tests discovered when CTest runs (cells, doctest cases) carry the property themselves.

set(TUTOR_LEARNER_STATE_FIXTURE learner_state)

# Makes every test of the current directory, added so far, require the fixture.
function(tutor_guard_learner_state)
  get_property(tests DIRECTORY PROPERTY TESTS)
  list(FILTER tests EXCLUDE REGEX "^learner state:")
  if(tests)
    set_property(TEST ${tests} APPEND PROPERTY FIXTURES_REQUIRED ${TUTOR_LEARNER_STATE_FIXTURE})
  endif()
endfunction()
