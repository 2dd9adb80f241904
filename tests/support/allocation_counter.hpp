#pragma once
// Test support: counts heap allocations while a scope is open, to check that hot calls allocate
// nothing. The counter lives in the one test file that replaces the allocator of the test
// binary (tests/test_allocations.cpp: malloc family + operator new, forwarding to glibc); two
// replacements would not link. The functions are declared weak so that a test using this header
// still links, and skips, while no file provides them (or under sanitizers, where nothing is
// replaced): check allocationCounterLinked() first.
//
// The providing file defines, over its own counters:
//   namespace grbda::testsupport {
//   bool allocationCounterAvailable() { return <replacement active>; }
//   long allocationCount() { return <count>; }
//   void resetAllocationCount() { <count> = 0; }
//   void setAllocationCounting(bool on) { <counting> = on; }
//   }
namespace grbda::testsupport {

__attribute__((weak)) bool allocationCounterAvailable();
__attribute__((weak)) long allocationCount();
__attribute__((weak)) void resetAllocationCount();
__attribute__((weak)) void setAllocationCounting(bool on);

/// true when a counting allocator is linked in and active.
inline bool allocationCounterLinked() {
  return allocationCounterAvailable != nullptr && allocationCount != nullptr && resetAllocationCount != nullptr &&
         setAllocationCounting != nullptr && allocationCounterAvailable();
}

/// Counts the allocations made during its lifetime: `AllocationScope s; call(); s.count()`.
/// Only use it after allocationCounterLinked() returned true.
class AllocationScope {
 public:
  AllocationScope() {
    resetAllocationCount();
    setAllocationCounting(true);
  }
  ~AllocationScope() { setAllocationCounting(false); }
  AllocationScope(const AllocationScope&) = delete;
  AllocationScope& operator=(const AllocationScope&) = delete;
  long count() const { return allocationCount(); }
};

}  // namespace grbda::testsupport
