// A World's static boxes take their own friction and restitution, or the world's through the one
// documented sentinel (StaticBox::kWorlds = -1); any other negative value is a typed error naming it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "grbda/collision/world.hpp"
#include "grbda/errors.hpp"

namespace grbda {
namespace {

std::string validationMessage(const World& world) {
  try {
    world.validate();
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(WorldBoxes, OnlyTheDocumentedSentinelMayBeNegative) {
  World world;
  world.boxes.emplace_back();  // friction and restitution default to kWorlds: the world's
  EXPECT_EQ(validationMessage(world), "accepted");
  world.boxes[0].friction = 0.4;
  world.boxes[0].restitution = 0.2;
  EXPECT_EQ(validationMessage(world), "accepted");

  world.boxes[0].friction = -2.0;
  std::string m = validationMessage(world);
  EXPECT_NE(m.find("box 0's friction must be >= 0, or -1"), std::string::npos) << m;
  EXPECT_NE(m.find("-2"), std::string::npos) << m;

  world.boxes[0].friction = StaticBox::kWorlds;
  world.boxes[0].restitution = -0.5;
  m = validationMessage(world);
  EXPECT_NE(m.find("box 0's restitution must be >= 0, or -1"), std::string::npos) << m;

  world.boxes[0].restitution = StaticBox::kWorlds;
  world.boxes[0].friction = std::nan("");
  m = validationMessage(world);
  EXPECT_NE(m.find("friction must be >= 0 and finite"), std::string::npos) << m;
  world.boxes[0].friction = -HUGE_VAL;
  EXPECT_NE(validationMessage(world).find("-inf"), std::string::npos) << validationMessage(world);
}

}  // namespace
}  // namespace grbda
