// UART bridge to the FPGA top's host port (docs/blocks/uart_bridge.md): a framed,
// CRC-checked request/response protocol over an 8N1 line, one request at a time.
//
//   request   A5 CMD SEQ ADDR_L ADDR_H CNT [CNT x 4 data bytes, writes only] CRC_H CRC_L
//   response  5A STATUS SEQ CNT [CNT x 4 data bytes] CRC_H CRC_L
//
// CMD 01 read word, 02 write word, 03 burst read, 04 burst write, 05 status; data words little
// endian; CRC-16/CCITT-FALSE (polynomial 0x1021, init 0xFFFF, MSB first, no final XOR) over
// every byte from the sync byte to the last data byte. STATUS 00 ok (bit 7: a write repeated
// with the SEQ of the write just executed, answered without writing again), 01 CRC error,
// 02 unknown command, 03 bad count, 04 timeout between bytes, 05 framing error.
//
// A frame's length follows from its header alone. A write frame's data is held in a buffer
// and written to the host port only after its CRC checked; a frame with an error writes
// nothing. A frame that fails its CRC or had a framing error may have been cut short by a
// corrupted header, so the bridge answers it only once the line has been quiet for
// TimeoutBits bit times (the rest of the host's frame is drained, not taken for a new one);
// a frame whose bytes stop for TimeoutBits bit times is answered with a timeout at once (a
// framing error, if one of its bytes had one: a low stop bit can misalign the bytes after it).
// Between frames every byte but the sync byte is discarded; bytes arriving while the bridge
// executes or answers are dropped (counted; the host waits for the answer). So a partial,
// corrupt or garbled frame never wedges the bridge.
//
// Host port: master side of simt_fpga_top's (an access in a cycle with host_valid_o and
// host_ready_i high, held until then; read data with host_rvalid_i, a cycle later there).
module simt_uart_bridge #(
  parameter int MaxBurst    = 64,    // words per burst (1..255); the write buffer's depth
  parameter int TimeoutBits = 2000,  // quiet bit times that end a partial frame or a drain
  localparam int BufAW      = (MaxBurst > 1) ? $clog2(MaxBurst) : 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] baud_div_i,    // clocks per bit (>= 4): clock / baud rate
  input  logic        rx_i,
  output logic        tx_o,
  output logic        host_valid_o,
  input  logic        host_ready_i,
  output logic        host_we_o,
  output logic [15:0] host_addr_o,
  output logic [31:0] host_wdata_o,
  input  logic        host_rvalid_i,
  input  logic [31:0] host_rdata_i,
  output logic        err_o          // one cycle: a frame is answered with an error (an LED)
);

  // ---- protocol constants ---------------------------------------------------------------
  localparam logic [7:0] SyncReq = 8'hA5, SyncRsp = 8'h5A;
  localparam logic [7:0] CmdRead = 8'h01, CmdWrite = 8'h02, CmdBurstRead = 8'h03,
                         CmdBurstWrite = 8'h04, CmdStatus = 8'h05;
  localparam logic [7:0] StOk = 8'h00, StDup = 8'h80, ErrCrc = 8'h01, ErrCmd = 8'h02,
                         ErrLen = 8'h03, ErrTimeout = 8'h04, ErrFraming = 8'h05;
  localparam logic [7:0] Version = 8'h01;
  localparam int         StatusWords = 3;

  localparam logic [3:0] SIdle   = 4'd0,  // hunting the sync byte
                         SHdr    = 4'd1,  // CMD SEQ ADDR_L ADDR_H CNT
                         SData   = 4'd2,  // a write's data bytes
                         SCrc    = 4'd3,  // the two CRC bytes
                         SDrain  = 4'd4,  // a bad frame: wait for a quiet line, then answer
                         SWFetch = 4'd5,  // read buffer word idx
                         SWrite  = 4'd6,  // write it to the host port
                         STxHdr  = 4'd7,  // 5A STATUS SEQ CNT
                         SNextW  = 4'd8,  // fetch the next response word
                         SRReq   = 4'd9,  // read it from the host port
                         SRWait  = 4'd10, // its read data
                         STxWord = 4'd11, // its four bytes
                         STxCrc  = 4'd12, // the response's CRC
                         STxEnd  = 4'd13; // the last byte on the line

  // CRC-16/CCITT-FALSE, one byte, MSB first.
  function automatic logic [15:0] crc16(input logic [15:0] crc, input logic [7:0] b);
    logic [15:0] c;
    c = crc ^ {b, 8'h00};
    for (int i = 0; i < 8; i++) c = c[15] ? ({c[14:0], 1'b0} ^ 16'h1021) : {c[14:0], 1'b0};
    crc16 = c;
  endfunction

  // ---- UART -------------------------------------------------------------------------------
  logic       rx_valid, rx_ferr, tx_valid, tx_ready;
  logic [7:0] rx_data, tx_data;

  simt_uart_rx u_rx (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .div_i       (baud_div_i),
    .rx_i        (rx_i),
    .valid_o     (rx_valid),
    .data_o      (rx_data),
    .frame_err_o (rx_ferr)
  );

  simt_uart_tx u_tx (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .div_i   (baud_div_i),
    .valid_i (tx_valid),
    .ready_o (tx_ready),
    .data_i  (tx_data),
    .tx_o    (tx_o)
  );

  // ---- state --------------------------------------------------------------------------------
  logic [3:0]  state_d, state_q;
  logic [9:0]  pos_d, pos_q;          // byte within header, data or CRC
  logic [7:0]  cmd_d, cmd_q, seq_d, seq_q, cnt_d, cnt_q;
  logic [15:0] addr_d, addr_q;
  logic        ferr_d, ferr_q;        // a framing error in this frame
  logic [15:0] crc_d, crc_q;          // the request's CRC so far
  logic [7:0]  err_d, err_q;          // a drained frame's answer
  logic [7:0]  rsp_st_d, rsp_st_q, rsp_cnt_d, rsp_cnt_q;
  logic [7:0]  idx_d, idx_q;          // word being written or answered
  logic [31:0] word_d, word_q;        // the response word on the line
  logic [23:0] asm_d, asm_q;          // a data word's first three bytes
  logic [15:0] tcrc_d, tcrc_q;        // the response's CRC so far
  logic [1:0]  tpos_d, tpos_q;        // byte within the response header, word or CRC
  logic [15:0] tick_d, tick_q;        // clock within a bit time
  logic [15:0] tmo_d, tmo_q;          // quiet bit times
  logic        last_vld_d, last_vld_q, last_wr_d, last_wr_q;
  logic [7:0]  last_seq_d, last_seq_q;
  logic [15:0] good_d, good_q, bad_d, bad_q, drop_d, drop_q, junk_d, junk_q;
  logic [7:0]  last_err_d, last_err_q;
  logic        err_pulse_d, err_pulse_q;

  // ---- decode of the received header ------------------------------------------------------
  logic       cmd_known, cmd_wr, len_ok, dup;
  logic [9:0] plen;                   // data bytes of the frame
  assign cmd_known = cmd_q >= CmdRead && cmd_q <= CmdStatus;
  assign cmd_wr    = cmd_q == CmdWrite || cmd_q == CmdBurstWrite;
  always_comb begin
    len_ok = 1'b0;
    unique case (cmd_q)
      CmdRead, CmdWrite:           len_ok = cnt_q == 8'd1;
      CmdBurstRead, CmdBurstWrite: len_ok = cnt_q != 8'd0 && 32'(cnt_q) <= MaxBurst;
      CmdStatus:                   len_ok = cnt_q == 8'd0;
      default:                     len_ok = 1'b0;
    endcase
  end
  assign dup = cmd_wr && last_vld_q && last_wr_q && seq_q == last_seq_q;

  // ---- write buffer ---------------------------------------------------------------------------
  logic             buf_we, buf_re;
  logic [BufAW-1:0] buf_waddr;
  logic [31:0]      buf_wdata, buf_rdata;
  assign buf_we    = state_q == SData && rx_valid && len_ok && pos_q[1:0] == 2'd3;
  assign buf_waddr = BufAW'(pos_q[9:2]);
  assign buf_wdata = {rx_data, asm_q};
  assign buf_re    = state_q == SWFetch;

  simt_ram_1r1w #(
    .Width (32),
    .Depth (MaxBurst)
  ) u_buf (
    .clk_i   (clk_i),
    .we_i    (buf_we),
    .waddr_i (buf_waddr),
    .wdata_i (buf_wdata),
    .re_i    (buf_re),
    .raddr_i (BufAW'(idx_q)),
    .rdata_o (buf_rdata)
  );

  // ---- status words -------------------------------------------------------------------------
  logic [31:0] status_word;
  always_comb begin
    unique case (idx_q)
      8'd0:    status_word = {8'h53, Version, 8'(MaxBurst), last_err_q};
      8'd1:    status_word = {bad_q, good_q};
      default: status_word = {drop_q, junk_q};
    endcase
  end

  // ---- host port and line -------------------------------------------------------------------
  assign host_valid_o = state_q == SWrite || state_q == SRReq;
  assign host_we_o    = state_q == SWrite;
  assign host_addr_o  = addr_q + 16'(idx_q);
  assign host_wdata_o = buf_rdata;

  always_comb begin
    tx_valid = 1'b0;
    tx_data  = '0;
    unique case (state_q)
      STxHdr: begin
        tx_valid = 1'b1;
        unique case (tpos_q)
          2'd0:    tx_data = SyncRsp;
          2'd1:    tx_data = rsp_st_q;
          2'd2:    tx_data = seq_q;
          default: tx_data = rsp_cnt_q;
        endcase
      end
      STxWord: begin
        tx_valid = 1'b1;
        tx_data  = word_q[8*tpos_q +: 8];
      end
      STxCrc: begin
        tx_valid = 1'b1;
        tx_data  = tpos_q[0] ? tcrc_q[7:0] : tcrc_q[15:8];
      end
      default: ;
    endcase
  end

  // ---- the protocol engine ----------------------------------------------------------------
  logic        in_frame, timeout, tx_fire, crc_ok_next;
  logic        respond;                 // start the response with rsp_st_d / rsp_cnt_d
  logic [15:0] crc_next;
  assign in_frame    = state_q == SHdr || state_q == SData || state_q == SCrc || state_q == SDrain;
  assign timeout     = in_frame && !rx_valid && tmo_q >= 16'(TimeoutBits);
  assign tx_fire     = tx_valid && tx_ready;
  assign crc_next    = crc16(crc_q, rx_data);
  assign crc_ok_next = crc_next == 16'h0000;

  always_comb begin
    state_d     = state_q;
    pos_d       = pos_q;
    cmd_d       = cmd_q;
    seq_d       = seq_q;
    cnt_d       = cnt_q;
    addr_d      = addr_q;
    ferr_d      = ferr_q;
    crc_d       = crc_q;
    err_d       = err_q;
    rsp_st_d    = rsp_st_q;
    rsp_cnt_d   = rsp_cnt_q;
    idx_d       = idx_q;
    word_d      = word_q;
    asm_d       = asm_q;
    tcrc_d      = tcrc_q;
    tpos_d      = tpos_q;
    tick_d      = (tick_q >= baud_div_i - 16'd1) ? 16'd0 : tick_q + 16'd1;
    tmo_d       = tmo_q;
    last_vld_d  = last_vld_q;
    last_wr_d   = last_wr_q;
    last_seq_d  = last_seq_q;
    good_d      = good_q;
    bad_d       = bad_q;
    drop_d      = drop_q;
    junk_d      = junk_q;
    last_err_d  = last_err_q;
    err_pulse_d = 1'b0;
    respond     = 1'b0;

    // Quiet time within a frame, in bit times.
    if (!in_frame || rx_valid)  tmo_d = '0;
    else if (tick_q == 16'd0 && tmo_q != 16'hFFFF) tmo_d = tmo_q + 16'd1;

    unique case (state_q)
      SIdle: begin
        if (rx_valid) begin
          if (!rx_ferr && rx_data == SyncReq) begin
            state_d = SHdr;
            pos_d   = '0;
            cmd_d   = '0;
            seq_d   = '0;
            cnt_d   = '0;
            ferr_d  = 1'b0;
            crc_d   = crc16(16'hFFFF, SyncReq);
          end else begin
            junk_d = junk_q + 16'd1;
          end
        end
      end
      SHdr, SData, SCrc: begin
        if (timeout) begin
          respond   = 1'b1;
          rsp_st_d  = ferr_q ? ErrFraming : ErrTimeout;
          rsp_cnt_d = '0;
        end else if (rx_valid) begin
          crc_d = crc_next;
          pos_d = pos_q + 10'd1;
          if (rx_ferr) ferr_d = 1'b1;
          if (state_q == SHdr) begin
            unique case (pos_q[2:0])
              3'd0:    cmd_d = rx_data;
              3'd1:    seq_d = rx_data;
              3'd2:    addr_d[7:0] = rx_data;
              3'd3:    addr_d[15:8] = rx_data;
              default: begin
                cnt_d = rx_data;
                pos_d = '0;
                state_d = (cmd_wr && rx_data != 8'd0) ? SData : SCrc;
              end
            endcase
          end else if (state_q == SData) begin
            asm_d[8*pos_q[1:0] +: 8] = rx_data;
            if (pos_q == plen - 10'd1) begin
              pos_d   = '0;
              state_d = SCrc;
            end
          end else if (pos_q[0]) begin
            // The second CRC byte: the frame is complete.
            if (ferr_q || rx_ferr || !crc_ok_next) begin
              state_d = SDrain;
              err_d   = (ferr_q || rx_ferr) ? ErrFraming : ErrCrc;
            end else if (!cmd_known || !len_ok) begin
              respond   = 1'b1;
              rsp_st_d  = !cmd_known ? ErrCmd : ErrLen;
              rsp_cnt_d = '0;
            end else if (dup) begin
              respond   = 1'b1;
              rsp_st_d  = StDup;
              rsp_cnt_d = '0;
            end else begin
              last_vld_d = 1'b1;
              last_wr_d  = cmd_wr;
              last_seq_d = seq_q;
              idx_d      = '0;
              if (cmd_wr) begin
                state_d = SWFetch;
              end else begin
                respond   = 1'b1;
                rsp_st_d  = StOk;
                rsp_cnt_d = cmd_q == CmdStatus ? 8'(StatusWords) : cnt_q;
              end
            end
          end
        end
      end
      SDrain: begin
        if (timeout) begin
          respond   = 1'b1;
          rsp_st_d  = err_q;
          rsp_cnt_d = '0;
        end
      end
      SWFetch: state_d = SWrite;
      SWrite: begin
        if (host_ready_i) begin
          if (idx_q == cnt_q - 8'd1) begin
            respond   = 1'b1;
            rsp_st_d  = StOk;
            rsp_cnt_d = '0;
          end else begin
            idx_d   = idx_q + 8'd1;
            state_d = SWFetch;
          end
        end
      end
      STxHdr: begin
        if (tx_fire) begin
          tcrc_d = crc16(tcrc_q, tx_data);
          tpos_d = tpos_q + 2'd1;
          if (tpos_q == 2'd3) begin
            idx_d   = '0;
            tpos_d  = '0;
            state_d = rsp_cnt_q != 8'd0 ? SNextW : STxCrc;
          end
        end
      end
      SNextW: begin
        if (cmd_q == CmdStatus) begin
          word_d  = status_word;
          state_d = STxWord;
        end else begin
          state_d = SRReq;
        end
      end
      SRReq:  if (host_ready_i) state_d = SRWait;
      SRWait: begin
        if (host_rvalid_i) begin
          word_d  = host_rdata_i;
          state_d = STxWord;
        end
      end
      STxWord: begin
        if (tx_fire) begin
          tcrc_d = crc16(tcrc_q, tx_data);
          tpos_d = tpos_q + 2'd1;
          if (tpos_q == 2'd3) begin
            idx_d   = idx_q + 8'd1;
            state_d = (idx_q == rsp_cnt_q - 8'd1) ? STxCrc : SNextW;
          end
        end
      end
      STxCrc: begin
        if (tx_fire) begin
          tpos_d = tpos_q + 2'd1;
          if (tpos_q[0]) state_d = STxEnd;
        end
      end
      STxEnd:  if (tx_ready) state_d = SIdle;
      default: state_d = SIdle;
    endcase

    // Bytes that arrive while the bridge executes or answers are dropped.
    if (rx_valid && !in_frame && state_q != SIdle) drop_d = drop_q + 16'd1;

    if (respond) begin
      state_d = STxHdr;
      tpos_d  = '0;
      tcrc_d  = 16'hFFFF;
      if (rsp_st_d == StOk || rsp_st_d == StDup) begin
        good_d = good_q + 16'd1;
      end else begin
        bad_d       = bad_q + 16'd1;
        last_err_d  = rsp_st_d;
        err_pulse_d = 1'b1;
      end
    end
  end

  assign plen = {cnt_q, 2'b00};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= SIdle;
      pos_q       <= '0;
      cmd_q       <= '0;
      seq_q       <= '0;
      cnt_q       <= '0;
      addr_q      <= '0;
      ferr_q      <= 1'b0;
      crc_q       <= 16'hFFFF;
      err_q       <= '0;
      rsp_st_q    <= '0;
      rsp_cnt_q   <= '0;
      idx_q       <= '0;
      word_q      <= '0;
      asm_q       <= '0;
      tcrc_q      <= 16'hFFFF;
      tpos_q      <= '0;
      tick_q      <= '0;
      tmo_q       <= '0;
      last_vld_q  <= 1'b0;
      last_wr_q   <= 1'b0;
      last_seq_q  <= '0;
      good_q      <= '0;
      bad_q       <= '0;
      drop_q      <= '0;
      junk_q      <= '0;
      last_err_q  <= '0;
      err_pulse_q <= 1'b0;
    end else begin
      state_q     <= state_d;
      pos_q       <= pos_d;
      cmd_q       <= cmd_d;
      seq_q       <= seq_d;
      cnt_q       <= cnt_d;
      addr_q      <= addr_d;
      ferr_q      <= ferr_d;
      crc_q       <= crc_d;
      err_q       <= err_d;
      rsp_st_q    <= rsp_st_d;
      rsp_cnt_q   <= rsp_cnt_d;
      idx_q       <= idx_d;
      word_q      <= word_d;
      asm_q       <= asm_d;
      tcrc_q      <= tcrc_d;
      tpos_q      <= tpos_d;
      tick_q      <= tick_d;
      tmo_q       <= tmo_d;
      last_vld_q  <= last_vld_d;
      last_wr_q   <= last_wr_d;
      last_seq_q  <= last_seq_d;
      good_q      <= good_d;
      bad_q       <= bad_d;
      drop_q      <= drop_d;
      junk_q      <= junk_d;
      last_err_q  <= last_err_d;
      err_pulse_q <= err_pulse_d;
    end
  end

  assign err_o = err_pulse_q;

`ifdef VERILATOR
  // The host port: an access is held, unchanged, until the port takes it; read data comes
  // only for a read in flight.
  logic        hold_q;
  logic        hold_we_q;
  logic [15:0] hold_addr_q;
  logic [31:0] hold_wdata_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      hold_q       <= 1'b0;
      hold_we_q    <= 1'b0;
      hold_addr_q  <= '0;
      hold_wdata_q <= '0;
    end else begin
      hold_q       <= host_valid_o && !host_ready_i;
      hold_we_q    <= host_we_o;
      hold_addr_q  <= host_addr_o;
      hold_wdata_q <= host_wdata_o;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!hold_q || (host_valid_o && host_we_o == hold_we_q && host_addr_o == hold_addr_q &&
                          (!host_we_o || host_wdata_o == hold_wdata_q)))
        else $error("uart_bridge: a host access changed before the port took it");
      assert (!host_rvalid_i || state_q == SRWait)
        else $error("uart_bridge: host read data without a read in flight");
      assert (!(state_q == SData) || pos_q < plen)
        else $error("uart_bridge: data byte beyond the frame's count");
      assert (!(state_q == SWrite || state_q == SWFetch) || (cmd_wr && len_ok && 32'(idx_q) < MaxBurst))
        else $error("uart_bridge: writing a frame that was not checked");
      assert (state_q <= STxEnd) else $error("uart_bridge: unknown state");
    end
  end
  initial begin
    assert (MaxBurst >= 1 && MaxBurst <= 255) else $error("uart_bridge: MaxBurst out of 1..255");
    assert (TimeoutBits >= 12 && TimeoutBits < 65535) else $error("uart_bridge: TimeoutBits out of 12..65534");
  end
`endif

endmodule
