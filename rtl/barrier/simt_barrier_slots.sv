// Barrier execution slots of the barrier unit (seed 000 [0101]-[0102], [0105], [0122]).
//
// A barrier whose portion may start (it became dynamic) is queued in the ready FIFO; the FIFO
// head moves into the lowest free execution slot. When every slot is busy the FIFO holds the
// barriers, and when the FIFO is full the producer is held by ready_ready_o (never dropped).
// Exclusive barriers: the head is not taken into a slot while an exclusive barrier occupies
// one, and an exclusive head waits until every slot is free, so an exclusive barrier always
// runs alone. The arbiter picks, among occupied slots not yet handed to the thread select,
// one of the highest priority (a priority per barrier id, e.g. texture-class barriers), with
// round robin among equals; the grant fires when the thread select can take a barrier.
// release frees a slot when its portion is done (or the barrier is reset), from the next
// cycle: the grant does not look at this cycle's release (it would chain the release's
// logic into the grant and on into the barrier table's ready), so the user never takes a
// grant in a cycle it releases a slot (asserted), when the grant may name that slot.
module simt_barrier_slots #(
  parameter int NumSlots  = 16,
  parameter int BarW      = 6,      // barrier instance: {resident CTA, id}
  parameter int PrioW     = 2,
  parameter int FifoDepth = 8,
  localparam int SlotW    = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  localparam int CntW     = $clog2(FifoDepth + 1),
  localparam int EntryW   = BarW + 1 + PrioW
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // A barrier is ready to run a portion.
  input  logic                ready_valid_i,
  output logic                ready_ready_o,
  input  logic [BarW-1:0]     ready_bar_i,
  input  logic                ready_excl_i,
  input  logic [PrioW-1:0]    ready_prio_i,
  // The portion of the barrier in this slot is done (or reset): the slot frees.
  input  logic                release_valid_i,
  input  logic [SlotW-1:0]    release_slot_i,
  // The thread select takes a barrier this cycle if one is granted.
  input  logic                sel_ready_i,
  output logic                grant_valid_o,
  output logic [SlotW-1:0]    grant_slot_o,
  output logic [BarW-1:0]     grant_bar_o,
  // Status.
  output logic [NumSlots-1:0] occupied_o,
  output logic [CntW-1:0]     fifo_count_o,
  output logic                excl_running_o,
  output logic                head_take_o      // the FIFO head enters a slot this cycle
);

  logic [NumSlots-1:0] occ_d, occ_q;        // slot holds a barrier
  logic [NumSlots-1:0] act_d, act_q;        // ... handed to the thread select
  logic [NumSlots-1:0] excl_d, excl_q;
  logic [BarW-1:0]     bar_q [NumSlots];     // slot contents: storage, written on dispatch
  logic [PrioW-1:0]    prio_q [NumSlots];

  // ---- ready FIFO -------------------------------------------------------------------------
  logic              head_valid, head_take;
  logic [EntryW-1:0] head;
  logic [BarW-1:0]   head_bar;
  logic              head_excl;
  logic [PrioW-1:0]  head_prio;

  simt_fifo #(
    .Width (EntryW),
    .Depth (FifoDepth)
  ) u_ready_fifo (
    .clk_i    (clk_i),
    .rst_ni   (rst_ni),
    .flush_i  (1'b0),
    .wvalid_i (ready_valid_i),
    .wready_o (ready_ready_o),
    .wdata_i  ({ready_bar_i, ready_excl_i, ready_prio_i}),
    .rvalid_o (head_valid),
    .rready_i (head_take),
    .rdata_o  (head),
    .count_o  (fifo_count_o)
  );
  assign {head_bar, head_excl, head_prio} = head;

  // ---- dispatch into the lowest free slot -------------------------------------------------
  logic             free_found;
  logic [SlotW-1:0] free_slot;
  logic             excl_occupied;

  simt_find_next_set #(.N(NumSlots), .Wrap(1'b0)) u_free (
    .vec_i   (~occ_q),
    .start_i ('0),
    .found_o (free_found),
    .idx_o   (free_slot)
  );

  assign excl_occupied = |(occ_q & excl_q);
  assign head_take     = head_valid && free_found && !excl_occupied &&
                         !(head_excl && (occ_q != '0));

  // ---- arbiter: highest priority among waiting occupied slots, round robin among equals ---
  logic [NumSlots-1:0] waiting, top;
  logic [PrioW-1:0]    best;
  logic                grant_fire, arb_valid;

  always_comb begin
    waiting = occ_q & ~act_q;
    best = '0;
    for (int s = 0; s < NumSlots; s++) begin
      if (waiting[s] && prio_q[s] > best) best = prio_q[s];
    end
    for (int s = 0; s < NumSlots; s++) top[s] = waiting[s] && (prio_q[s] == best);
  end

  /* verilator lint_off PINCONNECTEMPTY */
  simt_rr_arbiter #(.N(NumSlots)) u_arb (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .req_i     (top),
    .ack_i     (sel_ready_i),
    .valid_o   (arb_valid),
    .gnt_o     (),
    .gnt_idx_o (grant_slot_o)
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // Some waiting slot has the highest priority among the waiting: the grant is valid when any
  // slot waits. Said so, not through the priority compare (the barrier table's request ready
  // waits on it, ahead of its whole accept path).
  assign grant_valid_o = |waiting;
  assign grant_fire    = grant_valid_o && sel_ready_i;
  assign grant_bar_o = bar_q[grant_slot_o];

  always_comb begin
    occ_d  = occ_q;
    act_d  = act_q;
    excl_d = excl_q;
    if (grant_fire) act_d[grant_slot_o] = 1'b1;
    if (release_valid_i) begin
      occ_d[release_slot_i] = 1'b0;
      act_d[release_slot_i] = 1'b0;
    end
    if (head_take) begin
      occ_d[free_slot]  = 1'b1;
      act_d[free_slot]  = 1'b0;
      excl_d[free_slot] = head_excl;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      occ_q  <= '0;
      act_q  <= '0;
      excl_q <= '0;
    end else begin
      occ_q  <= occ_d;
      act_q  <= act_d;
      excl_q <= excl_d;
    end
  end

  // Slot contents matter only while occupied: storage without reset.
  always_ff @(posedge clk_i) begin
    if (head_take) begin
      bar_q[free_slot]  <= head_bar;
      prio_q[free_slot] <= head_prio;
    end
  end

  assign occupied_o     = occ_q;
  assign excl_running_o = excl_occupied;
  assign head_take_o    = head_take;

`ifdef VERILATOR
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!release_valid_i || occ_q[release_slot_i])
        else $error("barrier_slots: release of a free slot");
      assert ((act_q & ~occ_q) == '0) else $error("barrier_slots: active slot not occupied");
      assert (!excl_occupied || $onehot(occ_q))
        else $error("barrier_slots: exclusive barrier not alone");
      assert (!grant_valid_o || (occ_q[grant_slot_o] && !act_q[grant_slot_o]))
        else $error("barrier_slots: grant of a slot that is free or already granted");
      assert (grant_valid_o == arb_valid)
        else $error("barrier_slots: a slot waits but the arbiter grants none, or the reverse");
      assert (!(release_valid_i && sel_ready_i))
        else $error("barrier_slots: a grant taken in a cycle that releases a slot");
    end
  end
`endif

`ifdef FORMAL
  // Slot/FIFO bookkeeping: active slots are occupied, an exclusive barrier runs alone, the
  // exclusive flags live only on occupied slots, a grant names a waiting slot.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assume (!release_valid_i || occ_q[release_slot_i]);
      assume (!(release_valid_i && sel_ready_i));
      assert ((act_q & ~occ_q) == '0);
      assert ((excl_q & occ_q) == '0 || (occ_q & (occ_q - 1'b1)) == '0);
      assert (!grant_valid_o || (occ_q[grant_slot_o] && !act_q[grant_slot_o]));
      assert (grant_valid_o == arb_valid);
      assert (fifo_count_o <= CntW'(FifoDepth));
    end
  end
`endif

endmodule
