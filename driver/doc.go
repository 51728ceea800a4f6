// Package driver is the load driver: it turns a Plan (user levels held for a step
// each, the first part of each step a warm-up), or a StepSource that chooses each
// step from the one before, into goroutines that run the TPC-E-like workload and
// measure it.
//
// The caller supplies the workload through Config: one executor factory for the
// users and one for the market emulator and the timer (so they can have their own
// connections), a deck per user, and optional views of the pool, the storage
// (IOSampler) and anything else measured per step (WindowProbe).
//
// Actors (tpce.md §5): users run the customer deck through their own executor, each
// transaction paced by think time and an optional global rate; the market-exchange
// emulator (MEE) receives committed Trade-Orders and runs Trade-Result and
// Market-Feed on its own pool of workers with the reference's delays and ticker
// batching; a timer runs Data-Maintenance every minute and Trade-Cleanup once before
// the first step.
//
// Every transaction has an intended start. Response time runs from it, so a stalled
// server or an overloaded driver shows in the figures (coordinated omission); service
// time runs from the first statement sent (txn.Outcome.ServiceStart). Starts later
// than intended are counted as lag.
//
// Plans, pacers and the emulator's decisions are pure functions of explicit times, so
// they are tested as tables without sleeping; all waiting goes through a Clock.
// The driver starts goroutines; the workload (package txn) does not.
package driver
