// The proofs of the labs can fail: lab_proof refuses a version that does not do what it should.

#include <doctest/doctest.h>

#include "end_to_end.h"

using namespace end_to_end;

TEST_CASE("a decoy that passes its named test is not proved") {
  // The reference solution, presented as the decoy compares_devices: it passes every test.
  const Run run = run_program({program("lab_proof"), "decoy", program("lab02_solution"),
                               source("labs/02_device_checks/decoys/compares_devices.md")});
  expect_status(run, 1);
  expect_text(
      run,
      {"lab_proof: the decoy passes \"on_gpu recognises a tensor on mps although it reports mps:0\"; "
       "that test should catch it"});
}

TEST_CASE("a decoy whose failure does not say its phrase is not proved") {
  // The starter fails the test compares_devices names, but with the starter's message.
  const Run run = run_program({program("lab_proof"), "decoy", program("lab02_starter"),
                               source("labs/02_device_checks/decoys/compares_devices.md")});
  expect_status(run, 1);
  expect_text(run, {"lab_proof: the output should say: compare device types"});
}

TEST_CASE("a starter that passes its tests is not proved") {
  const Run run = run_program({program("lab_proof"), "starter", program("lab02_solution"),
                               source("labs/02_device_checks/starter/lab.cpp"), source("")});
  expect_status(run, 1);
  expect_text(run,
              {"lab_proof: the starter passes its tests; it should leave work for the learner"});
}
