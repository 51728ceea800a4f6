package txn

import "github.com/brokerbench/brokerbench/schema/rnd"

// DeckSize is the number of cards in the customer deck: the sum of the customer
// weights of the catalogue (890, docs/workload.md §8).
var DeckSize = deckSize()

func deckSize() int {
	n := 0
	for _, s := range Catalogue {
		n += s.Weight
	}
	return n
}

// Deck deals the customer emulator's transactions: one card per unit of weight,
// shuffled as it is dealt (the reference's rule, docs/workload.md §8), so every run of
// DeckSize consecutive draws holds exactly the weights, and a short run is not biased
// by a fixed order.
type Deck struct {
	r     *rnd.Rand
	cards []Kind
	next  int
}

// NewDeck returns a deck dealing with r.
func NewDeck(r *rnd.Rand) *Deck {
	d := &Deck{r: r, cards: make([]Kind, 0, DeckSize)}
	for _, s := range Catalogue {
		for i := 0; i < s.Weight; i++ {
			d.cards = append(d.cards, s.Kind)
		}
	}
	return d
}

// Next deals the next card; after the last card the whole deck is dealt again.
func (d *Deck) Next() Kind {
	if d.next == len(d.cards) {
		d.next = 0
	}
	// Fisher-Yates one step at a time: pick among the cards not dealt in this round.
	j := d.next + d.r.IntN(len(d.cards)-d.next)
	d.cards[d.next], d.cards[j] = d.cards[j], d.cards[d.next]
	k := d.cards[d.next]
	d.next++
	return k
}
